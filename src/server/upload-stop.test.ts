import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { createErrorController } from '../errors/error-controller.js';
import { ErrorListener } from '../errors/error-listener.js';
import { ErrorRenderer } from '../errors/renderers/error-renderer.js';
import { Response } from '../http/response.js';
import { Kernel } from '../kernel/kernel.js';
import { RecordingLogger } from '../logging/recording-logger.js';
import { createRequestListener } from './node-adapter.js';
import { serve } from './serve.js';

describe('a graceful stop with an upload under way', () => {
  it('logs the body cut off at the end of the grace period as the stop\'s doing, at NOTICE, not as a failure of the application', { timeout: 30_000 }, async () => {
    const logger = new RecordingLogger();
    const fatal: unknown[] = [];
    const kernel = new Kernel();
    let reading!: () => void;
    const bodyRead = new Promise<void>((resolve) => (reading = resolve));
    kernel.dispatcher.on('request', async (event) => {
      // The error page's sub-request has its controller already.
      if (event.request.attributes.controller !== undefined) return;
      const body = event.request.body();
      reading();
      event.setResponse(new Response(`got ${(await body).length}\n`));
    });
    kernel.dispatcher.addSubscriber(new ErrorListener({ logger, debug: false, controller: createErrorController(new ErrorRenderer({ debug: false })) }));
    const running = await serve(createRequestListener(kernel, { onFatal: (error) => fatal.push(error) }), { port: 0, gracePeriod: 200 });
    // A client sending its body a little at a time, and never all of it.
    const socket = connect(running.port, '127.0.0.1');
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab');
    await bodyRead;
    socket.write('cd');
    await running.close();
    await closed;
    // The application hears of the cut when node emits the request's close, a turn after the socket's.
    while (logger.records.length === 0) await delay(10);
    assert.deepEqual(
      logger.records.map(({ level, channel, message }) => ({ level, channel, message })),
      [{ level: 'notice', channel: 'request', message: 'request cut off by the server stopping before its body had all arrived' }],
    );
    assert.deepEqual(logger.records[0]!.context, { code: 'KEEL_ERR_SERVER_STOPPING', method: 'POST', request_uri: '/upload' });
    assert.deepEqual(fatal, []);
  });
});
