/** Fastify with its defaults (no logger), the demo's routes and a 404 handler. */
import Fastify, { type HTTPMethods, type RouteHandlerMethod } from 'fastify';
import { ALL_METHODS, NOT_FOUND_HTML, PEER_ROUTES, USER_JSON } from './peer-pages.js';
import { announceReady, answerRunnerQueries, exitOnSignal } from './server-signals.js';

const app = Fastify({ logger: false });

for (const route of PEER_ROUTES) {
  const handler: RouteHandlerMethod = (_request, reply) => {
    reply.type(route.kind === 'json' ? 'application/json' : 'text/html; charset=UTF-8');
    return route.body;
  };
  const methods = (route.methods ?? ALL_METHODS).filter((m) => m !== 'HEAD') as HTTPMethods[];
  app.route({ method: methods, url: route.path.replace(':id', ':id(^\\d+$)'), handler });
}
app.get<{ Params: { id: string } }>('/api/users/:id(^\\d+$)', async (request) => USER_JSON(request.params.id));
app.setNotFoundHandler((_request, reply) => {
  reply.code(404).type('text/html; charset=UTF-8').send(NOT_FOUND_HTML);
});

await app.listen({ port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' });
answerRunnerQueries();
announceReady();
exitOnSignal(() => void app.close());
