/** Express 5 with its defaults, the demo's routes and a final 404 middleware. */
import express, { type NextFunction, type Request, type Response } from 'express';
import { NOT_FOUND_HTML, PEER_ROUTES, USER_JSON } from './peer-pages.js';
import { announceReady, answerRunnerQueries, exitOnSignal } from './server-signals.js';

const app = express();
const DIGITS = /^\d+$/;

for (const route of PEER_ROUTES) {
  const handler = (request: Request, response: Response, next: NextFunction): void => {
    if (request.params.id !== undefined && !DIGITS.test(String(request.params.id))) return next();
    response.type(route.kind === 'json' ? 'application/json' : 'html').send(route.body);
  };
  if (route.methods === undefined) app.all(route.path, handler);
  else for (const method of route.methods) app[method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](route.path, handler);
}
app.get('/api/users/:id', (request, response, next) => {
  if (!DIGITS.test(request.params.id)) return next();
  response.json(USER_JSON(request.params.id));
});
app.use((_request: Request, response: Response) => {
  response.status(404).type('html').send(NOT_FOUND_HTML);
});

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  answerRunnerQueries();
  announceReady();
});
exitOnSignal(() => server.close());
