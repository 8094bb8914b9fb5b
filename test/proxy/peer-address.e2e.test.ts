import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Request } from '../../src/http/request.js';
import { Response } from '../../src/http/response.js';
import type { RouteDefinition } from '../../src/routing/route.js';
import { normaliseAddress } from '../../src/server/socket-address.js';
import { startDemo, type RunningDemo } from '../helpers/start-demo.js';
import { waitFor } from '../helpers/wait-for.js';

// What the controller saw of each request: the TCP peer and the client IP it resolved to.
interface Seen {
  remoteAddress: string;
  clientIp: string;
  viaTrustedProxy: boolean;
}

describe('the TCP peer a request is judged by', () => {
  let demo: RunningDemo;
  const seen: Seen[] = [];

  before(async () => {
    const route: RouteDefinition = {
      name: 'whoami',
      path: '/whoami',
      methods: ['GET'],
      controller: (request: Request) => {
        seen.push({ remoteAddress: request.remoteAddress, clientIp: request.clientIp, viaTrustedProxy: request.origin.viaTrustedProxy });
        return Response.text('ok');
      },
    };
    // Only 127.0.0.1 is a trusted proxy; the clients below connect from 127.0.0.2.
    demo = await startDemo({ TRUSTED_PROXIES: '127.0.0.1' }, [route]);
  });
  after(() => demo.close());

  it('is still the client that sent the request when it resets the connection right after, never a trusted 127.0.0.1', async () => {
    const attempts = 20;
    for (let i = 0; i < attempts; i++) {
      const socket = connect({ port: demo.port, host: '127.0.0.1', localAddress: '127.0.0.2' });
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      socket.write(`GET /whoami HTTP/1.1\r\nHost: app.example.test\r\nX-Forwarded-For: 6.6.6.${i}\r\n\r\n`);
      socket.resetAndDestroy();
    }
    // A request of a client that stays, answered once the server has read what came before it: the
    // requests whose clients left reached the controller all the same (they ran before the answer failed).
    const last = connect({ port: demo.port, host: '127.0.0.1', localAddress: '127.0.0.2' });
    await new Promise<void>((resolve, reject) => {
      last.once('data', () => resolve()).once('error', reject);
      last.write('GET /whoami HTTP/1.1\r\nHost: app.example.test\r\nConnection: close\r\n\r\n');
    });
    last.destroy();
    // The last request and at least one of those whose client reset the connection.
    await waitFor(() => seen.length >= 2);
    for (const request of seen) assert.deepEqual(request, { remoteAddress: '127.0.0.2', clientIp: '127.0.0.2', viaTrustedProxy: false });
  });
});

describe('a peer node cannot name', () => {
  let server: Server;
  let demo: RunningDemo;
  const path = join(tmpdir(), `keel-peer-${process.pid}.sock`);

  before(async () => {
    demo = await startDemo({ TRUSTED_PROXIES: 'loopback' });
    server = createServer(demo.app.handler);
    await new Promise<void>((resolve) => server.listen(path, resolve));
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await demo.close();
  });

  it('is no address at all, which no trusted-proxy range matches: a unix socket client cannot forward its IP', async () => {
    assert.equal(normaliseAddress(undefined), '');
    const body = await new Promise<string>((resolve, reject) => {
      const socket = connect(path);
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.on('end', () => resolve(text)).on('error', reject);
      socket.write('GET /api/status HTTP/1.1\r\nHost: app.example.test\r\nAccept: application/json\r\nX-Forwarded-For: 6.6.6.6\r\nX-Forwarded-Proto: https\r\nConnection: close\r\n\r\n');
    });
    const json = JSON.parse(body.slice(body.indexOf('\r\n\r\n') + 4)) as { clientIp: string; scheme: string };
    assert.deepEqual(json, { status: 'ok', clientIp: '', scheme: 'http' });
  });
});
