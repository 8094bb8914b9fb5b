import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from './config-error.js';
import { parseDotenv } from './parse-dotenv.js';

// Expansion is observed through parseDotenv, as a .env file's author sees it; expected values were checked
// against Symfony Dotenv 5.4 with the same file and environment.
function parse(text: string, env: Record<string, string> = {}, loaded: string[] = []): Record<string, string> {
  return parseDotenv(text, '/app/.env', { env, loaded: new Set(loaded) });
}

function assertRefused(fn: () => unknown, reason: string | RegExp, line: number): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.equal(error.code, 'KEEL_ERR_CONFIG_INVALID');
    if (typeof reason === 'string') assert.equal(error.message, `${reason} in "/app/.env" at line ${line}.`);
    else assert.match(error.message, reason);
    assert.deepEqual([error.file, error.line], ['/app/.env', line]);
    return true;
  });
}

describe('variable expansion in .env files', () => {
  it('expands $NAME and ${NAME} from earlier lines, unquoted and in double quotes', () => {
    assert.deepEqual(parse('HOST=db\nURL=redis://${HOST}:6379/$HOST\nQ="at $HOST"\n'), { HOST: 'db', URL: 'redis://db:6379/db', Q: 'at db' });
  });

  it('does not see later lines, and reads an unknown name as empty', () => {
    assert.deepEqual(parse('A=$B.$NOPE\nB=1\n'), { A: '.', B: '1' });
  });

  it('takes the name as long as it goes: $Apost is the variable Apost', () => {
    assert.deepEqual(parse('A=x\nB=$Apost\nC=${A}post\nD=$A-post\n'), { A: 'x', B: '', C: 'xpost', D: 'x-post' });
  });

  it('lets the real environment win over a line above', () => {
    assert.deepEqual(parse('HOST=file\nURL=$HOST\n', { HOST: 'real' }), { HOST: 'file', URL: 'real' });
    assert.deepEqual(parse('HOST=file\nURL=$HOST\n', { HOST: '' }), { HOST: 'file', URL: '' });
  });

  it('lets a line above win over a value that an earlier file set (SYMFONY_DOTENV_VARS)', () => {
    assert.deepEqual(parse('A=$HOST\nHOST=file\nB=$HOST\n', { HOST: 'earlier' }, ['HOST']), { A: 'earlier', HOST: 'file', B: 'file' });
  });

  it('uses the default of ${NAME:-default} when NAME is empty or unknown', () => {
    assert.deepEqual(parse('E=\nA=${E:-x}\nB=${NOPE:-a b}\nC=${NOPE:-}\nD="${NOPE:-8080}"\n', { SET: 'v' }), { E: '', A: 'x', B: 'a b', C: '', D: '8080' });
    assert.deepEqual(parse('A=${SET:-x}\n', { SET: 'v' }), { A: 'v' });
  });

  it('also defines NAME for the lines below with ${NAME:=default}', () => {
    assert.deepEqual(parse('A=${Z:=set}\nB=$Z\n'), { Z: 'set', A: 'set', B: 'set' });
  });

  it('keeps a backslash-escaped reference as text, and a backslash before a value when it is itself escaped', () => {
    assert.deepEqual(parse('A=1\nB=\\$A\nC="\\$A"\nD=\\${A:-x}\nE="\\\\$A"\n'), { A: '1', B: '$A', C: '$A', D: '${A:-x}', E: '\\1' });
  });

  it('keeps a $ that starts no reference, while ${} and $} are references to an empty name', () => {
    assert.deepEqual(parse('A=$\nB=a$\nC=$1\nD="$"\nE=${\nF=${}\nG=$}\n'), { A: '$', B: 'a$', C: '$1', D: '$', E: '${', F: '', G: '}' });
  });

  it('does not expand what a variable holds, nor read a space it brings as an unquoted space', () => {
    assert.deepEqual(parse('A=$V\nB=$S\n', { V: '$HOME', S: 'a b' }), { A: '$HOME', B: 'a b' });
  });

  describe('when a reference is malformed', () => {
    it('refuses an unclosed ${, naming the file and line', () => {
      assertRefused(() => parse('A=1\nB=${A\n'), 'Unclosed braces on variable expansion', 2);
      assertRefused(() => parse('B="${A:+x}"\n'), 'Unclosed braces on variable expansion', 1);
    });

    it('refuses a quote, a brace or a $ in a default that is used', () => {
      assertRefused(() => parse('B=${Z:-a\\$x}\n'), 'Unsupported character "$" found in the default value of variable "$Z".', 1);
      assertRefused(() => parse('B="${Z:-a{b}"\n'), 'Unsupported character "{" found in the default value of variable "$Z".', 1);
    });
  });
});

describe('command substitution in .env files', () => {
  it('is refused, unquoted or in double quotes, naming the file and line: keel never runs commands', () => {
    assertRefused(() => parse('A=1\nLOG_FILE=$(touch /tmp/pwned)\n'), /^Command substitution is not supported: keel never runs commands .* at line 2\.$/, 2);
    assertRefused(() => parse('A="$(echo hi)"\n'), /^Command substitution is not supported/, 1);
    assertRefused(() => parse('A=${Z:-$(echo hi)}\n'), /^Command substitution is not supported/, 1);
  });

  it('refuses an unclosed $( in an unquoted value', () => {
    assertRefused(() => parse('A=$(echo\nB=)\n'), 'Missing closing parenthesis.', 1);
  });

  it('keeps \\$(…), $() and single-quoted text as written', () => {
    assert.deepEqual(parse('A=\\$(echo a b)\nB="\\$(x)"\nC=\'$(x)\'\nD=$()\nE="$(x"\n'), { A: '$(echo a b)', B: '$(x)', C: '$(x)', D: '$()', E: '$(x' });
  });

  it('never treats a variable\'s value as a command', () => {
    assert.deepEqual(parse('A=$V\nB="$V"\n', { V: '$(echo hi)' }), { A: '$(echo hi)', B: '$(echo hi)' });
  });
});
