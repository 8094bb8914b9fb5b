import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadReferenceCaptures } from '../../test/helpers/reference-captures.js';
import { interpolate } from './interpolate.js';
import { LOG_MESSAGES } from './log-messages.js';
import { formatMonologDate, formatMonologLine } from './monolog-line-formatter.js';

/** An Error class whose name is a PHP class name, so that lines can be compared with the reference's. */
function phpErrorClass(name: string): new (message: string, options?: ErrorOptions) => Error {
  const cls = class extends Error {};
  Object.defineProperty(cls, 'name', { value: name });
  return cls;
}

// Paths and line numbers are the reference's own; everything else must match byte for byte.
function withoutPaths(line: string): string {
  return line.replace(/ at [^ ]*?:\d+\)/g, ' at FILE:LINE)');
}

const captures = loadReferenceCaptures('dev');
const logLine = (name: string, index = 0): string => captures.find((c) => c.name === name)!.logLines[index]!;
const timeOf = (line: string): number => {
  const [, date, micros] = /^\[(.{19})\.(\d{6})\+00:00\]/.exec(line)!;
  return Date.parse(`${date}Z`) + Number(micros) / 1000;
};

describe('formatMonologLine', () => {
  it('reproduces the reference 404 line, exception chain included', () => {
    const expected = logLine('404_robots');
    const NotFound = phpErrorClass('Symfony\\Component\\HttpKernel\\Exception\\NotFoundHttpException');
    const ResourceNotFound = phpErrorClass('Symfony\\Component\\Routing\\Exception\\ResourceNotFoundException');
    const error = new NotFound('No route found for "GET https://app.example.test/robots.txt"', {
      cause: new ResourceNotFound('No routes found for "/robots.txt/".'),
    });
    const message = interpolate(LOG_MESSAGES.uncaughtException, {
      class: NotFound.name,
      message: error.message,
      file: '/usr/share/php/Symfony/Component/HttpKernel/EventListener/RouterListener.php',
      line: 135,
    });
    const line = formatMonologLine({ time: timeOf(expected), level: 'error', channel: 'request', message, context: { exception: error } });
    assert.equal(withoutPaths(line), `${withoutPaths(expected)}\n`);
  });

  it('reproduces the reference "Matched route" line', () => {
    const expected = logLine('500_boom', 0);
    const context = {
      route: 'boom',
      route_parameters: { _route: 'boom', _controller: ['App\\Controller', 'boom'] },
      request_uri: 'https://app.example.test/boom',
      method: 'GET',
    };
    const line = formatMonologLine({ time: timeOf(expected), level: 'info', channel: 'request', message: interpolate(LOG_MESSAGES.matchedRoute, context), context });
    assert.equal(line, `${expected}\n`);
  });

  it('reproduces the reference CRITICAL line of an error without a cause, quotes and markup unescaped', () => {
    const expected = logLine('500_boom', 1);
    const RuntimeException = phpErrorClass('RuntimeException');
    const error = new RuntimeException('Boom <b>"quoted" & \'single\'</b>');
    const message = interpolate(LOG_MESSAGES.uncaughtException, { class: 'RuntimeException', message: error.message, file: '/srv/app/src/Controller.php', line: 49 });
    const line = formatMonologLine({ time: timeOf(expected), level: 'critical', channel: 'request', message, context: { exception: error } });
    assert.equal(withoutPaths(line), `${withoutPaths(expected)}\n`);
  });

  it('names the file and line where the error was created, and code 0 without a numeric code', () => {
    const error = Object.assign(new TypeError('bad'), { code: 'ERR_X' });
    const line = formatMonologLine({ time: 0, level: 'error', channel: 'app', message: 'm', context: { exception: error } });
    assert.match(line, /\[object\] \(TypeError\(code: 0\): bad at \S+monolog-line-formatter\.test\.ts:\d+\)/);
  });

  it('prints a numeric error code', () => {
    const line = formatMonologLine({ time: 0, level: 'error', channel: 'app', message: 'm', context: { e: Object.assign(new Error('x'), { code: 42 }) } });
    assert.match(line, /\(Error\(code: 42\): x at /);
  });

  it('prints [] for an empty context and keeps one record on one line', () => {
    const line = formatMonologLine({ time: 0, level: 'warning', channel: 'keel', message: 'a\nb\r\nc', context: {} });
    assert.equal(line, '[1970-01-01T00:00:00.000000+00:00] keel.WARNING: a b c [] []\n');
  });

  it('writes the control characters a message quotes as \\u escapes, so that no escape sequence reaches a terminal', () => {
    const line = formatMonologLine({ time: 0, level: 'error', channel: 'request', message: 'Panel "\u001b[31mRED\u001b]0;T\u0007\u0000\u009b" tab\tok', context: { panel: '\u001b' } });
    assert.equal(line, '[1970-01-01T00:00:00.000000+00:00] request.ERROR: Panel "\\u001b[31mRED\\u001b]0;T\\u0007\\u0000\\u009b" tab\tok {"panel":"\\u001b"} []\n');
  });

  // Split on Unicode lines (editors, many log viewers), a quoted U+2028 began a forged record; a bidi
  // override reordered what a reader sees.
  it('writes the Unicode line separators and the bidi controls a message quotes as \\u escapes too', () => {
    const forged = 'x\u2028[2026-11-25T10:00:00.000000+00:00] security.INFO: User admin logged in [] []\u2029 \u202egnp.exe \u2066a\u2069';
    const line = formatMonologLine({ time: 0, level: 'error', channel: 'request', message: `No route found (from "${forged}")`, context: {} });
    assert.equal(line.split(/\r\n|[\n\r\u2028\u2029\u0085]/).length, 2, line);
    assert.match(line, /from "x\\u2028\[2026-11-25T10:00:00\.000000\+00:00\] security\.INFO: User admin logged in \[\] \[\]\\u2029 \\u202egnp\.exe \\u2066a\\u2069"\)/);
  });

  it('leaves slashes and non-ASCII unescaped and normalises dates, bigints and class instances', () => {
    class Key {
      declare readonly resource: string;

      constructor(resource: string) {
        this.resource = resource;
      }
    }
    const line = formatMonologLine({
      time: 0,
      level: 'debug',
      channel: 'lock',
      message: 'm',
      context: { url: 'https://a.test/café', at: new Date(0), key: new Key('r'), big: 10n, nothing: undefined },
    });
    assert.match(line, /\{"url":"https:\/\/a\.test\/café","at":"1970-01-01T00:00:00\+00:00","key":\{"Key":\{"resource":"r"\}\},"big":"10","nothing":null\} \[\]\n$/);
  });

  it('cuts a context nested deeper than Monolog\'s limit', () => {
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 12; i++) deep = { deep };
    assert.match(formatMonologLine({ time: 0, level: 'debug', channel: 'app', message: 'm', context: deep }), /Over 9 levels deep, aborting normalization/);
  });
});

describe('formatMonologLine with hostile context', () => {
  const record = (context: Record<string, unknown>) => ({ time: 0, level: 'error' as const, channel: 'request', message: 'm', context });

  it('escapes DEL and the C1 controls of the context, as the message\'s are', () => {
    const line = formatMonologLine(record({ referer: 'https://x.test/\u009b31mRED\u007f' }));
    assert.ok(!/[\u007f-\u009f]/.test(line), line);
    assert.match(line, /\\u009b31mRED\\u007f/);
    assert.equal(JSON.parse(line.slice(line.indexOf('{'), line.lastIndexOf('}') + 1)).referer, 'https://x.test/\u009b31mRED\u007f');
  });

  it("escapes the bidi controls of the context, as the message's are, so that the line reads as it is written", () => {
    const message = 'invoice \u202egnp.exe \u2066a\u2069';
    const line = formatMonologLine({ ...record({ exception: message }), message });
    assert.ok(!/[\u202a-\u202e\u2066-\u2069]/.test(line), line);
    assert.match(line, /\{"exception":"invoice \\u202egnp\.exe \\u2066a\\u2069"\}/);
    assert.equal(JSON.parse(line.slice(line.indexOf('{'), line.lastIndexOf('}') + 1)).exception, message);
  });

  it('writes a context value that cannot be read as such, and the other values as they are', () => {
    const hostile = new Proxy({}, { ownKeys() { throw new Error('trap'); } });
    const line = formatMonologLine(record({ user: 'ada', hostile, nested: { getter: { get x(): string { throw new Error('getter failed'); } } } }));
    assert.match(line, / \{"user":"ada","hostile":"\[unreadable: trap\]","nested":\{"getter":"\[unreadable: getter failed\]"\}\} \[\]\n$/);
  });

  it('writes the record even when its context cannot be', () => {
    const line = formatMonologLine(record({ get broken(): string { throw new Error('getter failed'); } }));
    assert.match(line, /^\[1970-01-01T00:00:00\.000000\+00:00\] request\.ERROR: m \{"context":"not written: getter failed"\} \[\]\n$/);
  });
});

describe('formatMonologDate', () => {
  it('prints microseconds and +00:00', () => {
    assert.equal(formatMonologDate(Date.parse('2026-11-22T10:52:03.253Z') + 0.366), '2026-11-22T10:52:03.253366+00:00');
    assert.equal(formatMonologDate(1795344771171.254), '2026-11-22T10:52:51.171254+00:00');
  });

  it('gives each second its own text when times go back and forth', () => {
    const base = Date.parse('2026-11-22T10:52:03Z');
    assert.equal(formatMonologDate(base + 999.999), '2026-11-22T10:52:03.999999+00:00');
    assert.equal(formatMonologDate(base + 1000), '2026-11-22T10:52:04.000000+00:00');
    assert.equal(formatMonologDate(base - 0.001), '2026-11-22T10:52:02.999999+00:00');
    assert.equal(formatMonologDate(base + 0.5), '2026-11-22T10:52:03.000500+00:00');
  });
});
