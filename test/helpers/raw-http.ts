import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  statusText: string;
  /** Header lines in the order received, names as sent. */
  headers: [string, string][];
  body: string;
  /** The bytes as received, for tests that look for injected lines. */
  raw: string;
  header(name: string): string | undefined;
  headerNames(): string[];
}

export interface RawRequest {
  method?: string;
  /** Sent as is on the request line: no encoding, no validation. */
  path: string;
  headers?: [string, string][] | Record<string, string>;
  body?: string;
  httpVersion?: '1.0' | '1.1';
}

/**
 * Sends one request over a fresh TCP connection, byte for byte as given, and parses the answer. Unlike
 * fetch (which sorts headers) it keeps the response's header order, and unlike http.request it lets a
 * test send any request-target at all.
 */
export function rawRequest(port: number, { method = 'GET', path, headers = [], body, httpVersion = '1.1' }: RawRequest, host = '127.0.0.1'): Promise<RawResponse> {
  const pairs = Array.isArray(headers) ? headers : Object.entries(headers);
  const lines = [`${method} ${path} HTTP/${httpVersion}`, ...pairs.map(([name, value]) => `${name}: ${value}`)];
  if (!pairs.some(([name]) => name.toLowerCase() === 'host')) lines.push('host: localhost');
  if (body !== undefined) lines.push(`content-length: ${Buffer.byteLength(body)}`);
  const payload = `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`;
  return sendRaw(port, payload, host, method === 'HEAD');
}

export function sendRaw(port: number, payload: string | Buffer, host = '127.0.0.1', headOnly = false): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host);
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (): void => {
      if (settled) return;
      const parsed = tryParse(Buffer.concat(chunks), headOnly);
      if (parsed === undefined) return;
      settled = true;
      socket.destroy();
      resolve(parsed);
    };
    socket.setTimeout(10_000, () => {
      socket.destroy();
      if (!settled) reject(new Error('raw request timed out'));
    });
    socket.on('connect', () => socket.write(payload));
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      finish();
    });
    socket.on('end', () => {
      if (settled) return;
      const parsed = tryParse(Buffer.concat(chunks), headOnly, true);
      settled = true;
      if (parsed === undefined) reject(new Error(`incomplete response: ${Buffer.concat(chunks).toString('latin1').slice(0, 200)}`));
      else resolve(parsed);
    });
    socket.on('error', (error) => {
      if (!settled) reject(error);
    });
  });
}

function tryParse(data: Buffer, headOnly: boolean, atEnd = false): RawResponse | undefined {
  const text = data.toString('latin1');
  const split = text.indexOf('\r\n\r\n');
  if (split === -1) return undefined;
  const [statusLine = '', ...headerLines] = text.slice(0, split).split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(statusLine);
  if (match === null) throw new Error(`not an HTTP response: ${statusLine}`);
  const headers = headerLines.map((line): [string, string] => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon), line.slice(colon + 1).trim()];
  });
  const find = (name: string): string | undefined => headers.find(([n]) => n.toLowerCase() === name)?.[1];
  const rest = data.subarray(Buffer.byteLength(text.slice(0, split + 4), 'latin1'));
  let body: Buffer;
  const status = Number(match[1]);
  if (headOnly || status === 204 || status === 304) body = Buffer.alloc(0);
  else if (find('content-length') !== undefined) {
    const length = Number(find('content-length'));
    if (rest.length < length) return undefined;
    body = rest.subarray(0, length);
  } else if (find('transfer-encoding')?.toLowerCase() === 'chunked') {
    const decoded = decodeChunked(rest);
    if (decoded === undefined) return undefined;
    body = decoded;
  } else {
    if (!atEnd) return undefined;
    body = rest;
  }
  return {
    status,
    statusText: match[2] ?? '',
    headers,
    body: body.toString('utf8'),
    raw: text,
    header: find,
    headerNames: () => headers.map(([name]) => name),
  };
}

function decodeChunked(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', offset);
    if (lineEnd === -1) return undefined;
    const size = parseInt(data.subarray(offset, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) throw new Error('bad chunk size');
    if (size === 0) return Buffer.concat(parts);
    const start = lineEnd + 2;
    if (data.length < start + size + 2) return undefined;
    parts.push(data.subarray(start, start + size));
    offset = start + size + 2;
  }
}

/** Writes the bytes in one go and collects everything the server sends until it closes the connection. */
export function exchange(port: number, payload: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(payload));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => socket.destroy(new Error(`no close within 5 s, got: ${received}`)));
  });
}

/** The status lines of every response in what a connection received. */
export const statusLines = (received: string): string[] => received.match(/^HTTP\/1\.1 \d{3} [^\r]*/gm) ?? [];

/**
 * Writes `first`, then lets `reply` answer each chunk (given everything received so far); resolves with all
 * that was received once the connection closes.
 */
export function converse(port: number, first: string, reply: (received: string, socket: Socket) => void): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    received += chunk;
    reply(received, socket);
  });
  socket.write(first);
  return new Promise((resolve) => socket.on('close', () => resolve(received)));
}
