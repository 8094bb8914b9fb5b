/** The ceiling: bare node:http and a hand-written switch over the demo's routes. */
import { createServer, type ServerResponse } from 'node:http';
import { NOT_FOUND_HTML, USER_JSON } from './peer-pages.js';
import { announceReady, answerRunnerQueries, exitOnSignal } from './server-signals.js';

const HTML = 'text/html; charset=UTF-8';
const JSON_TYPE = 'application/json';
const DIGITS = /^\d+$/;

function send(res: ServerResponse, status: number, type: string, body: string, allow?: string): void {
  res.statusCode = status;
  res.setHeader('content-type', type);
  res.setHeader('content-length', Buffer.byteLength(body));
  if (allow !== undefined) res.setHeader('allow', allow);
  res.end(body);
}

function only(res: ServerResponse, method: string, allowed: string, type: string, body: string): void {
  if (allowed.split(', ').includes(method) || (method === 'HEAD' && allowed.includes('GET'))) send(res, 200, type, body);
  else send(res, 405, 'text/plain', 'Method Not Allowed\n', allowed);
}

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  const method = req.method ?? 'GET';
  switch (path) {
    case '/':
      return only(res, method, 'GET', HTML, '<!DOCTYPE html>\n<html lang="en"><head><meta charset="UTF-8"/><title>keel demo</title></head><body><h1>keel demo</h1></body></html>\n');
    case '/login':
      return only(res, method, 'POST', HTML, 'login ok\n');
    case '/blog/':
      return send(res, 200, HTML, 'blog index\n');
    case '/about':
      return send(res, 200, HTML, 'about\n');
    case '/boom':
      return send(res, 500, HTML, 'boom\n');
    case '/limited':
      return send(res, 200, HTML, 'limited ok\n');
    case '/limited-bare':
      return send(res, 200, HTML, 'limited-bare ok\n');
    case '/api/limited':
      return send(res, 200, JSON_TYPE, '{"ok":true}');
    case '/api/status':
      return only(res, method, 'GET', JSON_TYPE, '{"status":"ok"}');
  }
  if (path.startsWith('/items/') && DIGITS.test(path.slice(7))) return only(res, method, 'PUT, PATCH, DELETE', HTML, 'item\n');
  if (path.startsWith('/api/users/') && DIGITS.test(path.slice(11))) {
    return only(res, method, 'GET', JSON_TYPE, JSON.stringify(USER_JSON(path.slice(11))));
  }
  send(res, 404, HTML, NOT_FOUND_HTML);
});

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  answerRunnerQueries();
  announceReady();
});
exitOnSignal(() => server.close());
