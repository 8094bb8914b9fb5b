import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { createApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config/load-config.js';
import { Response } from '../../src/http/response.js';
import { createLogger } from '../../src/logging/create-logger.js';
import type { RouteDefinition } from '../../src/routing/route.js';
import { waitFor } from '../helpers/wait-for.js';

// Long enough that a client reading as fast as it can, in this same process, is never taken for a stalled
// one while the whole suite loads the machine: at 300 ms, the 48 MB answer to a reading client was cut once.
const SEND_TIMEOUT_MS = 1000;
// Far more than the kernel's socket buffers on both sides take: the rest waits in the server for the client.
const BIG = Buffer.alloc(48 * 1024 * 1024, 'x');

/** Sends a request and reads nothing of the answer, as a client that stalls on purpose. */
function stalledClient(port: number, path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.pause();
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      resolve(socket);
    });
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}

describe('a response its client does not read (SEND_TIMEOUT_MS)', () => {
  let projectDir = '';
  const logged: string[] = [];
  const closed: string[] = [];
  let app: App;
  let port = 0;

  before(async () => {
    projectDir = await mkdtemp(join(tmpdir(), 'keel-send-timeout-'));
    const routes: RouteDefinition[] = [
      { name: 'big', path: '/big', controller: () => new Response(BIG, 200, { 'Content-Type': 'application/octet-stream' }) },
      {
        name: 'endless',
        path: '/endless',
        controller: () => {
          const source = new Readable({ read: () => source.push('y'.repeat(65_536)) });
          source.on('close', () => closed.push('endless'));
          return new Response(source, 200, { 'Content-Type': 'text/plain' });
        },
      },
      {
        name: 'news',
        path: '/news',
        // Events farther apart than the send timeout: idle in between, with nothing left to send.
        controller: () => {
          async function* news(): AsyncGenerator<string> {
            for (let i = 1; i <= 3; i++) {
              yield `data: ${i}\n\n`;
              await sleep(SEND_TIMEOUT_MS * 2);
            }
          }
          return new Response(news(), 200, { 'Content-Type': 'text/event-stream' });
        },
      },
      { name: 'hello', path: '/hello', controller: () => new Response('hello') },
      {
        name: 'slow',
        path: '/slow',
        // Longer to make than several send timeouts: the connection is quiet meanwhile, and must stay up.
        controller: async () => {
          await sleep(SEND_TIMEOUT_MS * 4);
          return new Response('slow done');
        },
      },
    ];
    const config = loadConfig({ cwd: projectDir, env: { APP_ENV: 'prod', SEND_TIMEOUT_MS: String(SEND_TIMEOUT_MS) } });
    const logger = createLogger({ env: config.env, debug: config.debug, level: 'info', stderr: false, file: undefined, destination: { write: (line: string) => void logged.push(line) } });
    app = createApp({ config, logger, routes });
    port = (await app.listen({ port: 0, host: '127.0.0.1' })).port;
  });
  after(async () => {
    await app.close();
    await rm(projectDir, { recursive: true, force: true });
  });

  it('closes the connection of a large answer its client stopped reading, says so, and keeps serving', async () => {
    const client = await stalledClient(port, '/big');
    await waitFor(() => logged.some((line) => line.includes(`client took no more of the response for ${SEND_TIMEOUT_MS} ms`) && line.includes('/big')));
    // Told by a reset: reading again, the client finds the connection gone before the whole body.
    let received = 0;
    client.on('data', (chunk: Buffer) => (received += chunk.length));
    const ended = new Promise((resolve) => client.once('close', resolve));
    client.resume();
    await ended;
    assert.ok(received < BIG.length, `${received} bytes of ${BIG.length}`);
    const answer = await new Promise<number | undefined>((resolve, reject) => httpRequest({ port, path: '/hello', agent: false }, (res) => resolve(res.resume().statusCode)).on('error', reject).end());
    assert.equal(answer, 200);
  });

  // nginx may reach keel over a unix socket, and a TLS socket has no reset either.
  it('closes a stalled connection on a unix socket too, the process serving on', async () => {
    const path = join(projectDir, 'keel.sock');
    const server = createServer(app.handler);
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      const before = logged.length;
      const client = await new Promise<Socket>((resolve) => {
        const socket = connect(path, () => {
          socket.pause();
          socket.write('GET /big HTTP/1.1\r\nHost: localhost\r\n\r\n');
          resolve(socket);
        });
        socket.on('error', () => undefined);
      });
      await waitFor(() => logged.slice(before).some((line) => line.includes('client took no more of the response') && line.includes('/big')));
      client.destroy();
      const answer = await new Promise<number | undefined>((resolve, reject) => httpRequest({ socketPath: path, path: '/hello', agent: false }, (res) => resolve(res.resume().statusCode)).on('error', reject).end());
      assert.equal(answer, 200);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('lets go of the source of a stream its client stopped reading', async () => {
    const client = await stalledClient(port, '/endless');
    await waitFor(() => closed.includes('endless'));
    assert.ok(logged.some((line) => line.includes('client took no more of the response') && line.includes('/endless')));
    client.destroy();
  });

  it('leaves alone the next response of the connection, however long it takes to make', async () => {
    const before = logged.length;
    const received = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /big HTTP/1.1\r\nHost: localhost\r\n\r\nGET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n'));
      let tail = '';
      socket.on('data', (chunk: Buffer) => {
        // The end of the stream only: the first answer is 48 MB of `x`.
        tail = (tail + chunk.toString('latin1')).slice(-512);
        if (tail.endsWith('slow done')) {
          socket.destroy();
          resolve(tail);
        }
      });
      socket.on('error', reject);
      socket.on('close', () => reject(new Error(`closed before the second answer: …${tail.slice(-80)}`)));
    });
    assert.match(received, /HTTP\/1\.1 200 OK[\s\S]*slow done$/);
    assert.deepEqual(logged.slice(before).filter((line) => line.includes('client took no more')), []);
  });

  it('keeps a stream open while it has nothing to send, however long between two events', async () => {
    const before = logged.length;
    const body = await new Promise<string>((resolve, reject) =>
      httpRequest({ port, path: '/news', agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(text));
        res.on('error', reject);
      })
        .on('error', reject)
        .end(),
    );
    assert.equal(body, 'data: 1\n\ndata: 2\n\ndata: 3\n\n');
    assert.deepEqual(logged.slice(before).filter((line) => line.includes('client took no more')), []);
  });
});
