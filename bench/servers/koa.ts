/** Koa 3 with @koa/router, the demo's routes, allowedMethods() and a final 404 middleware. */
import Router from '@koa/router';
import Koa from 'koa';
import { ALL_METHODS, NOT_FOUND_HTML, PEER_ROUTES, USER_JSON } from './peer-pages.js';
import { announceReady, answerRunnerQueries, exitOnSignal } from './server-signals.js';

const app = new Koa();
const router = new Router();
const DIGITS = /^\d+$/;

for (const route of PEER_ROUTES) {
  router.register(route.path, route.methods ?? ALL_METHODS, async (ctx, next) => {
    if (ctx.params.id !== undefined && !DIGITS.test(ctx.params.id)) return next();
    ctx.type = route.kind === 'json' ? 'application/json' : 'text/html; charset=UTF-8';
    ctx.body = route.body;
  });
}
router.get('/api/users/:id', async (ctx, next) => {
  if (!DIGITS.test(ctx.params.id ?? '')) return next();
  ctx.body = USER_JSON(ctx.params.id ?? '');
});
app.use(router.routes());
app.use(router.allowedMethods());
app.use(async (ctx) => {
  ctx.status = 404;
  ctx.type = 'text/html; charset=UTF-8';
  ctx.body = NOT_FOUND_HTML;
});

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  answerRunnerQueries();
  announceReady();
});
exitOnSignal(() => server.close());
