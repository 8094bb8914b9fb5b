import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Request } from '../http/request.js';
import { MAX_REQUEST_LOGS, RequestStack } from '../kernel/request-stack.js';
import { createLogger, createWallClock } from './create-logger.js';
import { literalMessage } from './logger.js';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'keel-log-'));
  dirs.push(dir);
  return dir;
}

function collector(): { lines: string[]; write(line: string): void } {
  const lines: string[] = [];
  return { lines, write: (line) => void lines.push(line) };
}

function requestWithStack(): Request {
  const request = new Request({ method: 'GET', target: '/' });
  request.stack = new RequestStack();
  return request;
}

const FIXED_TIME = Date.parse('2026-11-22T10:52:03.253Z') + 0.366;

describe('createLogger', () => {
  describe('in dev', () => {
    it('writes Monolog lines to the log file, creating its directory, readable right after flush()', async () => {
      const file = join(tempDir(), 'var', 'log', 'dev.log');
      const logger = createLogger({ env: 'dev', debug: true, file, stderr: false, now: () => FIXED_TIME });
      logger.channel('request').info('Matched route "{route}".', { route: 'home', method: 'GET' });
      await logger.flush();
      assert.equal(readFileSync(file, 'utf8'), '[2026-11-22T10:52:03.253366+00:00] request.INFO: Matched route "home". {"route":"home","method":"GET"} []\n');
      await logger.close();
    });

    it('appends to an existing log file', async () => {
      const file = join(tempDir(), 'dev.log');
      for (const message of ['one', 'two']) {
        const logger = createLogger({ env: 'dev', debug: true, file, stderr: false, now: () => 0 });
        logger.warning(message);
        await logger.close();
      }
      assert.deepEqual(readFileSync(file, 'utf8').trim().split('\n').map((line) => line.split(' ')[2]), ['one', 'two']);
    });

    it('keeps every record passed with a request on the request\'s stack, even below the threshold', () => {
      const out = collector();
      const logger = createLogger({ env: 'dev', debug: true, level: 'warning', destination: out, now: () => 5 });
      const request = requestWithStack();
      logger.channel('request').debug('Matched route "{route}".', { route: 'home' }, request);
      logger.channel('request').error('boom', {}, request);
      assert.deepEqual(request.stack!.logs, [
        { time: 5, level: 'debug', channel: 'request', message: 'Matched route "home".', context: { route: 'home' }, requestId: request.id },
        { time: 5, level: 'error', channel: 'request', message: 'boom', context: {}, requestId: request.id },
      ]);
      assert.equal(out.lines.length, 1);
      assert.match(out.lines[0]!, /\] request\.ERROR: boom \[\] \[\]\n$/);
    });

    it('keeps the first 10 000 records of a request and counts the others, all of them written', () => {
      const out = collector();
      const logger = createLogger({ env: 'dev', debug: true, destination: out, now: () => 0 });
      const request = requestWithStack();
      for (let i = 0; i < 25_000; i++) logger.info('tick {i}', { i }, request);
      assert.equal(request.stack!.logs.length, MAX_REQUEST_LOGS);
      assert.equal(request.stack!.logs.at(-1)!.message, `tick ${MAX_REQUEST_LOGS - 1}`);
      assert.equal(request.stack!.droppedLogs, 15_000);
      assert.equal(out.lines.length, 25_000);
    });

    it("masks a secret-named placeholder in the request's copy of a record, not in the log file", () => {
      const out = collector();
      const logger = createLogger({ env: 'dev', debug: true, destination: out, now: () => 0 });
      const request = requestWithStack();
      logger.info('Login of {user} with {password}', { user: 'ada', password: 'hunter2' }, request);
      assert.equal(request.stack!.logs[0]!.message, 'Login of ada with ******');
      assert.match(out.lines[0]!, /app\.INFO: Login of ada with hunter2 \{/);
    });

    it('names the channel the record was logged on, app by default', () => {
      const out = collector();
      const logger = createLogger({ env: 'dev', debug: true, destination: out, now: () => 0 });
      logger.info('a');
      logger.channel('security').channel('cache').info('b');
      assert.equal(logger.channel('x'), logger.channel('x'));
      assert.deepEqual(out.lines.map((line) => line.split(' ')[1]), ['app.INFO:', 'cache.INFO:']);
    });
  });

  describe('when debug is off', () => {
    it('keeps nothing on the request', () => {
      const logger = createLogger({ env: 'prod', debug: false, destination: collector() });
      const request = requestWithStack();
      logger.error('boom', {}, request);
      assert.deepEqual(request.stack!.logs, []);
    });
  });

  describe('in prod', () => {
    it('writes pino JSON lines with the channel, the level name and the interpolated message', () => {
      const out = collector();
      const logger = createLogger({ env: 'prod', debug: false, level: 'info', destination: out });
      logger.channel('request').info('Matched route "{route}".', { route: 'home' });
      logger.channel('request').debug('hidden');
      const cause = new Error('inner');
      logger.channel('request').critical('failed', { exception: new RangeError('outer', { cause }) });
      assert.equal(out.lines.length, 2);
      const info = JSON.parse(out.lines[0]!);
      assert.equal(info.level, 'info');
      assert.equal(info.channel, 'request');
      assert.equal(info.msg, 'Matched route "home".');
      assert.equal(info.route, 'home');
      assert.equal(typeof info.time, 'number');
      const critical = JSON.parse(out.lines[1]!);
      assert.equal(critical.level, 'critical');
      assert.equal(critical.exception.type, 'RangeError');
      // Its own message, the cause nested: not `outer: inner`, which repeats a cause that says the same.
      assert.equal(critical.exception.message, 'outer');
      assert.equal(critical.exception.cause.message, 'inner');
    });

    // pino has serializers for `exception` and `err` only: an Error under any other key has no field of its own to write.
    it('writes an error under any key of the context, not `{}`', () => {
      const out = collector();
      const logger = createLogger({ env: 'prod', debug: false, level: 'info', destination: out });
      logger.error('profile store write failed', { token: 'abc123', error: new Error('EACCES: permission denied') });
      const line = JSON.parse(out.lines[0]!);
      assert.equal(line.error.message, 'EACCES: permission denied');
      assert.equal(line.error.type, 'Error');
      assert.equal(line.token, 'abc123');
    });

    // A reader keeping the last of two keys would take the context's for the line's own.
    it("renames a context key that would write one of the line's own fields twice, keel's reqId kept", () => {
      const out = collector();
      const logger = createLogger({ env: 'prod', debug: false, level: 'info', destination: out, actionLevel: false });
      const request = requestWithStack();
      logger.channel('request').info('spoof', { level: 'emergency', time: 1, channel: 'security', msg: 'forged', reqId: 'x', pid: 0, hostname: 'h', kept: true }, request);
      const line = out.lines[0]!;
      for (const field of ['level', 'time', 'channel', 'msg', 'reqId', 'pid', 'hostname']) assert.equal(line.split(`"${field}":`).length, 2, `${field} once in ${line}`);
      const parsed = JSON.parse(line);
      assert.deepEqual([parsed.level, parsed.channel, parsed.msg, parsed.reqId], ['info', 'request', 'spoof', request.id]);
      assert.deepEqual([parsed.context_level, parsed.context_channel, parsed.context_msg, parsed.context_reqId, parsed.kept], ['emergency', 'security', 'forged', 'x', true]);
    });

    it("keeps a context key named __proto__ (a parsed JSON body's) on a request's line, as on any other", () => {
      const out = collector();
      const logger = createLogger({ env: 'prod', debug: false, level: 'info', destination: out, actionLevel: false });
      const request = requestWithStack();
      logger.info('payload', JSON.parse('{"__proto__":{"role":"admin"},"name":"x"}') as Record<string, unknown>, request);
      assert.match(out.lines[0]!, /"reqId":\d+,"__proto__":\{"role":"admin"\},"name":"x"/);
    });

    it('fills the message from the context as logged, as dev does, whether held back or not', () => {
      for (const actionLevel of [false, 'error'] as const) {
        const out = collector();
        const logger = createLogger({ env: 'prod', debug: false, level: 'info', destination: out, actionLevel });
        const request = requestWithStack();
        logger.info('{level} at {time} by {failure} in {reqId}', { level: 'debit', time: 'noon', failure: new RangeError('x') }, request);
        logger.error('boom', {}, request);
        assert.equal(JSON.parse(out.lines[0]!).msg, 'debit at noon by [object RangeError] in {reqId}', `actionLevel ${actionLevel}`);
      }
    });

    it('escapes the terminal controls, line separators and bidi controls JSON leaves raw, on every output', async () => {
      const file = join(tempDir(), 'prod.log');
      const out = collector();
      const logger = createLogger({ env: 'prod', debug: false, level: 'info', file, destination: out, actionLevel: false });
      const text = 'from "\u009b31mRED\u007f \u202eevil \u2028forged"';
      logger.error(text, { referer: text });
      await logger.flush();
      for (const line of [out.lines[0]!, readFileSync(file, 'utf8')]) {
        assert.ok(!/[\u007f-\u009f\u2028\u2029\u202e]/.test(line), line);
        assert.deepEqual([JSON.parse(line).msg, JSON.parse(line).referer], [text, text]);
      }
      await logger.close();
    });

    it('writes a literal message as it is, in prod as in dev', () => {
      const out = collector();
      createLogger({ env: 'prod', debug: false, level: 'info', destination: out }).error('GET /{exception}{reqId}', literalMessage({ exception: new Error('x') }));
      assert.equal(JSON.parse(out.lines[0]!).msg, 'GET /{exception}{reqId}');
      const dev = collector();
      createLogger({ env: 'dev', debug: true, destination: dev, now: () => 0 }).error('GET /{exception}', literalMessage({ exception: new Error('x') }));
      assert.match(dev.lines[0]!, /request|app\.ERROR: GET \/\{exception\} \{"exception":/);
    });

    it('writes a frozen error, or one with a frozen cause, which pino\'s serializer cannot mark as seen', () => {
      const out = collector();
      const logger = createLogger({ env: 'prod', debug: false, level: 'info', destination: out });
      const cause = Object.freeze(new Error('inner'));
      logger.channel('request').error('failed', { exception: Object.freeze(new TypeError('outer', { cause })) });
      logger.channel('request').error('failed', { exception: new Error('outer', { cause }) });
      const lines = out.lines.map((line) => JSON.parse(line) as { exception: { type: string; message: string; cause: { message: string } } });
      assert.deepEqual(lines.map(({ exception }) => [exception.type, exception.message, exception.cause.message]), [
        ['TypeError', 'outer', 'inner'],
        ['Error', 'outer', 'inner'],
      ]);
    });

    it("holds a request's records back until an error, then writes them first, with the time they were logged (fingers crossed)", async () => {
      const out = collector();
      const logger = createLogger({ env: 'prod', debug: false, level: 'info', destination: out });
      const failing = requestWithStack();
      const fine = requestWithStack();
      logger.channel('request').info('Matched route "{route}".', { route: 'home' }, failing);
      logger.channel('request').info('Matched route "{route}".', { route: 'about' }, fine);
      assert.equal(out.lines.length, 0);
      const loggedAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 20));
      logger.channel('request').critical('Uncaught exception', {}, failing);
      assert.deepEqual(
        out.lines.map((line) => JSON.parse(line).msg),
        ['Matched route "home".', 'Uncaught exception'],
      );
      assert.ok(JSON.parse(out.lines[0]!).time <= loggedAt + 5);
      logger.channel('request').info('after the error', {}, failing);
      assert.equal(out.lines.length, 3);
    });

    it("marks the lines of a request and of its sub-requests with the main request's reqId, as Fastify does", () => {
      const out = collector();
      const logger = createLogger({ env: 'prod', debug: false, level: 'info', destination: out, actionLevel: false });
      const main = requestWithStack();
      main.stack!.push(main);
      const sub = main.duplicate();
      sub.stack = main.stack;
      main.stack!.push(sub);
      logger.info('main', {}, main);
      logger.info('sub', {}, sub);
      logger.info('no request');
      const lines = out.lines.map((line) => JSON.parse(line) as { reqId?: number; pid?: number });
      assert.deepEqual(lines.map((line) => line.reqId), [main.id, main.id, undefined]);
      assert.equal(typeof lines[0]!.pid, 'number');
    });

    it('writes every record as it comes with actionLevel false', () => {
      const out = collector();
      const logger = createLogger({ env: 'prod', debug: false, level: 'info', destination: out, actionLevel: false });
      logger.info('Matched route "{route}".', { route: 'home' }, requestWithStack());
      assert.equal(out.lines.length, 1);
    });

    it('also writes the JSON lines to a file when one is set, asynchronously, complete after flush()', async () => {
      const file = join(tempDir(), 'log', 'prod.log');
      const out = collector();
      const logger = createLogger({ env: 'prod', debug: false, level: 'warning', file, destination: out });
      logger.warning('disk almost full', { free: 3 });
      await logger.flush();
      const record = JSON.parse(readFileSync(file, 'utf8'));
      assert.equal(record.msg, 'disk almost full');
      assert.equal(record.free, 3);
      assert.equal(out.lines.length, 1);
      await logger.close();
    });
  });

  describe('in test', () => {
    it('writes the Monolog lines to its file', async () => {
      const file = join(tempDir(), 'test.log');
      const logger = createLogger({ env: 'test', debug: true, file });
      logger.error('visible in the file');
      await logger.close();
      assert.match(readFileSync(file, 'utf8'), /^\[[^\]]+\] app\.ERROR: visible in the file \[\] \[\]\n$/);
    });
  });
});

describe('createWallClock', () => {
  it('dates by the wall clock with the precise clock\'s digits, and follows the wall clock once the two part', () => {
    let precise = 1000.25;
    let wall = 1_795_000_000_000;
    const clock = createWallClock(() => precise, () => wall);
    assert.equal(clock(), 1_795_000_000_000);
    precise += 1.5;
    wall += 1;
    assert.equal(clock(), 1_795_000_000_001.5);
    // The process slept ten minutes: the precise clock stood still meanwhile.
    wall += 600_000;
    precise += 0.001;
    assert.equal(clock(), wall);
    precise += 0.5;
    assert.equal(clock(), wall + 0.5);
  });
});
