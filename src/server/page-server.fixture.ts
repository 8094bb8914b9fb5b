import { Response } from '../http/response.js';
import type { RequestEvent } from '../kernel/events.js';
import { Kernel } from '../kernel/kernel.js';
import { createRequestListener } from './node-adapter.js';
import { serve, type RunningServer } from './serve.js';

/**
 * A server on a free port whose every request is answered `page <path>`: what the server tests send raw
 * requests to. `later`: answered an event-loop turn later, once the parser has read what follows the request.
 */
export function servePages({ later = false }: { later?: boolean } = {}): Promise<RunningServer> {
  const kernel = new Kernel();
  const answer = (event: RequestEvent): void => event.setResponse(new Response(`page ${event.request.pathInfo}\n`));
  kernel.dispatcher.on('request', later ? (event) => new Promise((resolve) => setImmediate(resolve)).then(() => answer(event)) : answer);
  return serve(createRequestListener(kernel), { port: 0 });
}
