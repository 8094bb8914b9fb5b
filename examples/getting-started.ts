/**
 * The getting-started application (docs/getting-started.md): three routes, a controller with a path
 * parameter, and a sensitive route that the `sensitive` rate limiter guards.
 *
 *   node --import tsx examples/getting-started.ts          serve it on PORT (default 8000)
 *   npx keel debug:router --app examples/getting-started.ts
 */
import { pathToFileURL } from 'node:url';
import { createApp, loadConfig, NotFoundHttpException, readForm, Response, type Request, type RouteDefinition } from 'keel';

/** A controller: the request, then the route's parameters (placeholders and defaults). */
function showBook(_request: Request, { id }: { id: string }): Response {
  const book = BOOKS.get(Number(id));
  if (book === undefined) throw new NotFoundHttpException(`Book ${id} does not exist.`);
  return Response.json({ id: Number(id), title: book });
}

async function login(request: Request): Promise<Response> {
  const user = (await readForm(request)).get('user');
  return user === null ? Response.json({ error: 'user is required' }, 400) : Response.json({ welcome: user });
}

const BOOKS = new Map([
  [1, 'The Pragmatic Programmer'],
  [2, 'Refactoring'],
]);

export const routes: RouteDefinition[] = [
  { name: 'home', path: '/', methods: ['GET'], controller: () => Response.html('<!DOCTYPE html>\n<title>Books</title>\n<h1>Books</h1>\n') },
  { name: 'book_show', path: '/books/{id<\\d+>}', methods: ['GET'], controller: showBook },
  // Sensitive: at most RATE_LIMIT_SENSITIVE_LIMIT attempts per RATE_LIMIT_SENSITIVE_INTERVAL seconds per client.
  { name: 'login', path: '/login', methods: ['POST'], controller: login, options: { limiters: ['sensitive'] } },
];

// Serve only when run as a program: `keel debug:router` imports this module for its routes alone.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const app = createApp({ config: loadConfig(), routes });
  const server = await app.listen();
  process.stdout.write(`getting-started listening on ${server.url}\n`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
}
