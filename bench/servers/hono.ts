/** Hono (its default SmartRouter) on @hono/node-server, the demo's routes and a notFound handler. */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { ALL_METHODS, NOT_FOUND_HTML, PEER_ROUTES, USER_JSON } from './peer-pages.js';
import { announceReady, answerRunnerQueries, exitOnSignal } from './server-signals.js';

const app = new Hono();

for (const route of PEER_ROUTES) {
  app.on(route.methods ?? ALL_METHODS, route.path.replace(':id', ':id{[0-9]+}'), (c) =>
    route.kind === 'json' ? c.body(route.body, 200, { 'content-type': 'application/json' }) : c.html(route.body),
  );
}
app.get('/api/users/:id{[0-9]+}', (c) => c.json(USER_JSON(c.req.param('id'))));
app.notFound((c) => c.html(NOT_FOUND_HTML, 404));

const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: '127.0.0.1' }, () => {
  answerRunnerQueries();
  announceReady();
});
exitOnSignal(() => server.close());
