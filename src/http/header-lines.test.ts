import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { sendRaw } from '../../test/helpers/raw-http.js';
import { HeaderNameSet, headerFromLines, headersFromLines, sameSelectedLines, selectLines } from './header-lines.js';
import { Request } from './request.js';

// Names with each way node treats a repeat: first line wins, joined with `, `, joined with `; `, a list.
const NAMES = ['host', 'user-agent', 'content-type', 'authorization', 'x-forwarded-for', 'x-forwarded-host', 'forwarded', 'accept', 'cookie', 'set-cookie', 'x-custom'];
const spelling = (name: string) => fc.constantFrom(name, name.toUpperCase(), name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase()));
const headerLine = fc.constantFrom(...NAMES).chain((name) => fc.tuple(spelling(name), fc.stringMatching(/^[!-~]([ -~]{0,10}[!-~])?$/)));

describe('headerFromLines', () => {
  let server: Server;
  let port: number;
  // What the server saw for each request: Request.header() from the lines, and node's record.
  const seen: { fromLines: (string | undefined)[]; fromRecord: (string | undefined)[]; built: unknown; node: unknown }[] = [];

  before(async () => {
    server = createServer((req: IncomingMessage, res) => {
      const request = new Request({ method: req.method ?? 'GET', target: req.url ?? '/', headers: req });
      const fromLines = NAMES.map((name) => request.header(name));
      const fromRecord = NAMES.map((name) => {
        const value = req.headers[name];
        return Array.isArray(value) ? value[0] : value;
      });
      seen.push({ fromLines, fromRecord, built: headersFromLines(req.rawHeaders), node: { ...req.headers } });
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads each header, and builds the record, as node does from the same lines, repeats and spellings included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(headerLine, { minLength: 1, maxLength: 12 }), async (lines) => {
        seen.length = 0;
        const text = lines.map(([name, value]) => `${name}: ${value}\r\n`).join('');
        // HTTP/1.1 requires a Host line: the last one, so that a random one before it comes first.
        await sendRaw(port, `GET / HTTP/1.1\r\n${text}Host: last.test\r\nConnection: close\r\n\r\n`);
        assert.equal(seen.length, 1);
        assert.deepEqual(seen[0]!.fromLines, seen[0]!.fromRecord);
        assert.deepEqual(seen[0]!.built, seen[0]!.node);
      }),
      { numRuns: 150 },
    );
  });

  it('keeps the first line of a header whose repeats node drops, and joins the others', () => {
    const lines = ['Host', 'a.test', 'host', 'b.test', 'X-Forwarded-For', '1.1.1.1', 'x-forwarded-for', '2.2.2.2', 'Cookie', 'a=1', 'cookie', 'b=2'];
    assert.equal(headerFromLines(lines, 'host'), 'a.test');
    assert.equal(headerFromLines(lines, 'x-forwarded-for'), '1.1.1.1, 2.2.2.2');
    assert.equal(headerFromLines(lines, 'cookie'), 'a=1; b=2');
    assert.equal(headerFromLines(lines, 'accept'), undefined);
  });
});

describe('Request over header lines', () => {
  const lines = ['Host', 'app.test', 'X-Forwarded-Proto', 'https', 'Cookie', 'a=1', 'cookie', 'b=2', 'Set-Cookie', 'x=1'];

  it('answers header() from the lines, and builds the same record node builds on first use of headers', () => {
    const request = new Request({ method: 'GET', target: '/', headers: { rawHeaders: lines } });
    assert.equal(request.header('HOST'), 'app.test');
    assert.equal(request.host, 'app.test');
    assert.equal(request.header('cookie'), 'a=1; b=2');
    assert.equal(request.header('set-cookie'), 'x=1');
    assert.deepEqual(request.headers, { host: 'app.test', 'x-forwarded-proto': 'https', cookie: 'a=1; b=2', 'set-cookie': ['x=1'] });
    assert.equal(request.headers, request.headers);
    assert.equal(request.header('x-forwarded-proto'), 'https');
  });

  it('hands the lines on to a duplicate, or the record once it is built', () => {
    const copy = new Request({ method: 'GET', target: '/', headers: { rawHeaders: lines } }).duplicate();
    assert.equal(copy.header('host'), 'app.test');
    const original = new Request({ method: 'GET', target: '/', headers: { rawHeaders: lines } });
    const record = original.headers;
    assert.equal(original.duplicate().headers, record);
  });

  it('keeps names that are properties of every object as ordinary headers', () => {
    assert.deepEqual(headersFromLines(['Constructor', 'x', 'toString', 'y', 'constructor', 'z']), { constructor: 'x, z', tostring: 'y' });
  });
});

describe('selected header lines', () => {
  const names = new HeaderNameSet(['Host', 'x-forwarded-for', 'forwarded', 'cookie']);

  it('keeps the lines of the named headers, in order, under their lower-case names, whatever their spelling', () => {
    const lines = ['HOST', 'a.test', 'Accept', '*/*', 'X-Forwarded-For', '1.1.1.1', 'x-forwarded-for', '2.2.2.2', 'X-Forwarded-Host', 'b.test'];
    assert.deepEqual(selectLines(lines, names), ['host', 'a.test', 'x-forwarded-for', '1.1.1.1', 'x-forwarded-for', '2.2.2.2']);
    assert.equal(names.indexOf('FORWARDED'), 2);
    assert.equal(names.indexOf('forwarder'), -1);
  });

  it('tells lines that select the same as another request\'s, without building them', () => {
    fc.assert(
      fc.property(fc.array(headerLine, { maxLength: 8 }), fc.array(headerLine, { maxLength: 8 }), (a, b) => {
        const [first, second] = [a.flat(), b.flat()];
        const selected = selectLines(first, names);
        assert.equal(sameSelectedLines(first, names, selected), true);
        const same = JSON.stringify(selectLines(second, names)) === JSON.stringify(selected);
        assert.equal(sameSelectedLines(second, names, selected), same);
      }),
    );
  });
});
