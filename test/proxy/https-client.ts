import { request } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';

export interface HttpsAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface HttpsGetOptions {
  port: number;
  path: string;
  /** The proxy's certificate, the only one trusted. */
  ca: Buffer;
  serverName: string;
  method?: string;
  headers?: Record<string, string>;
  /** A request body, sent with its Content-Length. */
  body?: Buffer;
  /** Source address of the client's connection (any of 127.0.0.0/8). */
  localAddress?: string;
}

/**
 * One HTTPS request to 127.0.0.1, verified against the test certificate by name (SNI and the Host
 * header carry the name, as a browser would send them), over a fresh connection.
 */
export function httpsGet({ port, path, ca, serverName, method = 'GET', headers = {}, body, localAddress }: HttpsGetOptions): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        ca,
        servername: serverName,
        localAddress,
        agent: false,
        headers: { host: `${serverName}:${port}`, ...headers },
        timeout: 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`https ${method} ${path} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}
