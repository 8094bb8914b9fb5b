import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from './config-error.js';
import { parseDotenv } from './parse-dotenv.js';

// Expected values were checked against Symfony Dotenv 5.4 (Dotenv::parse) with the same input.
const parse = (text: string): Record<string, string> => parseDotenv(text, '/app/.env');

/** The file is refused with Symfony's reason, naming the file and the line of the faulty declaration. */
function assertRefused(fn: () => unknown, reason: string, line: number, file = '/app/.env'): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.equal(error.code, 'KEEL_ERR_CONFIG_INVALID');
    assert.equal(error.message, `${reason} in "${file}" at line ${line}.`);
    assert.deepEqual([error.file, error.line], [file, line]);
    return true;
  });
}

describe('parseDotenv', () => {
  describe('declarations', () => {
    it('reads declarations on \\n, \\r\\n or \\r lines, with export prefixes, comments and blank lines between them', () => {
      const text = '# intro\r\n\n   # indented = comment\n\texport A=a#1\r\nb=2\rexport\tC=\nC=3\n_D=';
      assert.deepEqual(parse(text), { A: 'a#1', b: '2', C: '3', _D: '' });
    });
  });

  describe('comments in values', () => {
    it('starts a comment at # only after a space or a tab, or at the start of the value, and trims the value', () => {
      assert.deepEqual(parse('A=a#b\nB=a #b\nC=a\t# b\nD=#b\nE= # b\nF=f  \nG=g\t\n'), { A: 'a#b', B: 'a', C: 'a', D: '', E: '', F: 'f', G: 'g' });
    });

    it('keeps # inside quotes, and right after a closing quote', () => {
      assert.deepEqual(parse('A="a #b"\nB=\'a # b\' # c\nC="x"#y\n'), { A: 'a #b', B: 'a # b', C: 'x#y' });
    });
  });

  describe('quotes', () => {
    it('takes a single-quoted value as written, where an unquoted one is expanded', () => {
      assert.deepEqual(parse("H=home\nA='a\\nb \\\\ $H ${X:-y} \"'\nB=$H\n"), { H: 'home', A: 'a\\nb \\\\ $H ${X:-y} "', B: 'home' });
    });

    it('unescapes \\" \\n \\r \\\\ and \\$ in double quotes, and leaves \\t as written', () => {
      assert.deepEqual(parse('A="a\\"b\\nc\\rd\\\\e\\$f\\tg"'), { A: 'a"b\nc\rd\\e$f\\tg' });
    });

    it('replaces \\n before \\\\, so that "\\\\n" is a backslash and a newline, as Symfony does', () => {
      assert.deepEqual(parse('A="\\\\n"\nB="a\\\\"\n'), { A: '\\\n', B: 'a\\' });
    });

    it('lets a double-quoted value span lines and hold escaped quotes', () => {
      assert.deepEqual(parse('A="say \\"hi\\"\nbye"\nB=2\n'), { A: 'say "hi"\nbye', B: '2' });
    });

    it('joins quoted and unquoted parts of one value', () => {
      assert.deepEqual(parse('A="a"b"c"\nB=a\'b\'\nC=\'a\'"b"c\n'), { A: 'abc', B: 'ab', C: 'abc' });
    });

    it('reads \\" and \\\' in an unquoted value as quote characters, and halves \\\\', () => {
      assert.deepEqual(parse('A=\\"x\\"\nB=\\\'x\nC=a\\\\b\nD=a\\b\n'), { A: '"x"', B: "'x", C: 'a\\b', D: 'a\\b' });
    });

    it('keeps backticks as text', () => {
      assert.deepEqual(parse('A=`x`\nB="`echo hi`"\n'), { A: '`x`', B: '`echo hi`' });
    });
  });

  describe('when the file breaks Symfony\'s syntax', () => {
    const cases: [string, string, string, number][] = [
      ['a space before =', 'A=1\nB = 2\n', 'Whitespace characters are not supported after the variable name', 2],
      ['a space after =', 'A= 1\n', 'Whitespace are not supported before the value', 1],
      ['an unquoted value with a space', 'A=1\n\nB=a b\n', 'A value containing spaces must be surrounded by quotes', 3],
      ['text after a closing quote, past a space', 'A="x" y\n', 'A value containing spaces must be surrounded by quotes', 1],
      ['an unclosed double quote', 'A=1\nB="unclosed\nC=2\n', 'Missing quote to end the value', 2],
      ['an unclosed single quote', "A='unclosed\n", 'Missing quote to end the value', 1],
      ['a double quote closed only by an escaped one', 'A="a\\"\n', 'Missing quote to end the value', 1],
      ['a name starting with a digit', '1A=1\n', 'Invalid character in variable name', 1],
      ['a name starting with two underscores', '__A=1\n', 'Invalid character in variable name', 1],
      ['a name with a non-ASCII letter', 'É=1\n', 'Invalid character in variable name', 1],
      ['a name with a dash', 'A-B=1\n', 'Missing = in the environment variable declaration', 1],
      ['a line without =', 'A=1\nB\n', 'Missing = in the environment variable declaration', 2],
      ['YAML syntax', 'PORT: 9000\n', 'Missing = in the environment variable declaration', 1],
      ['export without a value', 'export A\n', 'Unable to unset an environment variable', 1],
      ['a byte-order mark', '\uFEFFA=1\n', 'Loading files starting with a byte-order-mark (BOM) is not supported.', 1],
    ];
    for (const [what, text, reason, line] of cases) {
      it(`refuses ${what}, naming the file and line`, () => assertRefused(() => parse(text), reason, line));
    }

    it('counts the lines of a multi-line value before the faulty declaration', () => {
      assertRefused(() => parse('A="x\ny"\n\n# c\nB=a b\n'), 'A value containing spaces must be surrounded by quotes', 5);
    });

    it('keeps the final period of the reasons Symfony ends with one, so the message is Symfony\'s first line', () => {
      assert.throws(() => parse('A=${Z:-{x}\n'), { message: 'Unsupported character "{" found in the default value of variable "$Z". in "/app/.env" at line 1.' });
      assert.throws(() => parse('A=$(echo\n'), { message: 'Missing closing parenthesis. in "/app/.env" at line 1.' });
    });

    it('keeps the faulty line\'s text out of the message, where a secret may be', () => {
      assert.throws(() => parse('APP_SECRET=s3cr3t value\n'), (error: Error) => !error.message.includes('s3cr3t'));
    });
  });
});
