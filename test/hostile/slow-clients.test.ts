import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { rawRequest, sendRaw } from '../helpers/raw-http.js';
import { seedHeaders } from '../helpers/seed-request.js';
import { startDemo, type RunningDemo } from '../helpers/start-demo.js';

// Small limits so that the cut-offs happen within the test; each wait below is bounded by its own
// timeout, far above the configured limit, and nothing asserts how long a step took.
const LIMITS = { HEADERS_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '600', KEEP_ALIVE_TIMEOUT_MS: '300', MAX_HEADER_SIZE: '4k', BODY_LIMIT: '1k' };
const BOUND_MS = 8_000;

interface Outcome {
  /** Everything the server sent before closing. */
  received: string;
  closedByServer: boolean;
}

/**
 * Opens a connection, writes `first`, then keeps trickling `drip` every 50 ms (at most `drips` times) until
 * the server closes the connection or BOUND_MS passes.
 */
function trickle(port: number, first: string, drip: string, drips = 200): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let received = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const bound = setTimeout(() => finish(false), BOUND_MS);
    const finish = (closedByServer: boolean): void => {
      clearInterval(timer);
      clearTimeout(bound);
      socket.destroy();
      resolve({ received, closedByServer });
    };
    // The drips start once the first bytes are written: on a busy machine a drip due before the connection
    // was up went out ahead of the request line (`xGET …`), which the server rightly refused with a 400.
    socket.on('connect', () => {
      socket.write(first);
      timer = setInterval(() => {
        if (sent++ < drips && socket.writable) socket.write(drip);
      }, 50);
    });
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
  });
}

describe('slow and oversized clients are cut off by the configured timeouts and limits', () => {
  let demo: RunningDemo;
  before(async () => {
    demo = await startDemo(LIMITS);
  });
  after(() => demo.close());

  it('closes a connection whose headers trickle in byte by byte (slowloris) with a 408', async () => {
    const outcome = await trickle(demo.port, 'GET /robots.txt HTTP/1.1\r\nhost: app.example.test\r\n', 'x');
    assert.ok(outcome.closedByServer, 'the server closed the connection');
    // The client keeps writing: its next byte after the close may draw a reset that discards the unread 408.
    assert.match(outcome.received, /^(HTTP\/1\.1 408 Request Timeout\r\n|$)/);
  });

  it('closes a connection that keeps sending header lines forever', async () => {
    const outcome = await trickle(demo.port, 'GET / HTTP/1.1\r\nhost: app.example.test\r\n', 'x-a: b\r\n');
    assert.ok(outcome.closedByServer);
    assert.match(outcome.received, /^(HTTP\/1\.1 (408|431) |$)/);
  });

  it('closes a connection whose body never finishes arriving', async () => {
    const head = 'POST /login HTTP/1.1\r\nhost: app.example.test\r\ncontent-length: 500\r\n\r\n';
    const outcome = await trickle(demo.port, head, 'b', 400);
    assert.ok(outcome.closedByServer);
    // node answers the timeout itself when no response has started.
    assert.match(outcome.received, /^HTTP\/1\.1 408 /);
  });

  it('drops an idle keep-alive connection after the keep-alive timeout', async () => {
    const outcome = await trickle(demo.port, 'GET /about HTTP/1.1\r\nhost: app.example.test\r\n\r\n', '', 0);
    assert.ok(outcome.closedByServer);
    assert.match(outcome.received, /^HTTP\/1\.1 200 OK\r\n/);
    assert.equal(outcome.received.match(/HTTP\/1\.1 /g)?.length, 1);
  });

  it('keeps serving others while a hundred slow clients hold connections', async () => {
    const slow = Array.from({ length: 100 }, () => trickle(demo.port, 'GET / HTTP/1.1\r\nhost: app.example.test\r\n', 'y', 40));
    const answers = await Promise.all(Array.from({ length: 20 }, () => rawRequest(demo.port, { path: '/robots.txt', headers: seedHeaders() })));
    assert.deepEqual(new Set(answers.map((answer) => answer.status)), new Set([404]));
    const outcomes = await Promise.all(slow);
    assert.ok(outcomes.every((outcome) => outcome.closedByServer), 'every slow client was cut off');
  });

  it('answers a header block one byte over MAX_HEADER_SIZE with 431, and one under it normally', async () => {
    const over = await rawRequest(demo.port, { path: '/robots.txt', headers: seedHeaders({ 'x-pad': 'p'.repeat(4 * 1024) }) });
    assert.equal(over.status, 431);
    const under = await rawRequest(demo.port, { path: '/robots.txt', headers: seedHeaders({ 'x-pad': 'p'.repeat(2 * 1024) }) });
    assert.equal(under.status, 404);
  });

  it('answers many small headers adding up over the limit with 431', async () => {
    const many = Array.from({ length: 800 }, (_, i): [string, string] => [`x-h${i}`, 'v']);
    const response = await rawRequest(demo.port, { path: '/', headers: [...seedHeaders(), ...many] });
    assert.equal(response.status, 431);
  });

  it('answers a chunked body over BODY_LIMIT with 413 and does not read the rest', async () => {
    const chunk = 'z'.repeat(512);
    const chunks = Array.from({ length: 8 }, () => `200\r\n${chunk}\r\n`).join('');
    const request = `POST /login HTTP/1.1\r\nhost: app.example.test\r\ntransfer-encoding: chunked\r\n\r\n${chunks}0\r\n\r\n`;
    const response = await sendRaw(demo.port, request);
    assert.equal(response.status, 413);
  });

  it('answers a declared Content-Length of a terabyte with 413 at once', async () => {
    const response = await sendRaw(demo.port, 'POST /login HTTP/1.1\r\nhost: app.example.test\r\ncontent-length: 1099511627776\r\n\r\nabc');
    assert.equal(response.status, 413);
  });

  it('answers a body sent to a route that never reads it, and stays usable', async () => {
    const response = await rawRequest(demo.port, { method: 'POST', path: '/robots.txt', headers: seedHeaders(), body: 'q'.repeat(64 * 1024) });
    assert.equal(response.status, 404);
    const after = await rawRequest(demo.port, { path: '/about', headers: seedHeaders() });
    assert.equal(after.status, 200);
  });

  it('refuses a request smuggling attempt (Content-Length with Transfer-Encoding) with a 400', async () => {
    const response = await sendRaw(
      demo.port,
      'POST /login HTTP/1.1\r\nhost: app.example.test\r\ncontent-length: 4\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nhost: x\r\n\r\n',
    );
    assert.equal(response.status, 400);
  });
});
