import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NGINX = '/usr/sbin/nginx';

export interface NginxOptions {
  /** keel's port on 127.0.0.1, reached over plain HTTP. */
  upstreamPort: number;
  /** Name the certificate is made for, and the `server_name`. */
  serverName?: string;
  /**
   * `X-Forwarded-Port`: `'client'` sends `$server_port` (the port the client connected to), a number sends
   * that number whatever the client used (the reference's proxy always sends 443).
   */
  forwardedPort?: 'client' | number;
  /** Source address nginx connects to keel from (`proxy_bind`), so that keel can tell nginx from the client. */
  bindAddress?: string;
  /**
   * The `http` block's site configuration (upstreams and server blocks) instead of the built-in one, given
   * the port to listen on and the certificate's files: a configuration quoted from the docs, run as written.
   */
  site?: (o: SiteParameters) => string;
}

export interface SiteParameters {
  port: number;
  certPath: string;
  keyPath: string;
}

export interface RunningNginx {
  /** The TLS port nginx listens on, on 127.0.0.1. */
  port: number;
  /** The self-signed certificate (PEM), to pass as `ca` to the client. */
  certificate: Buffer;
  serverName: string;
  /** The whole nginx.conf, for failure messages. */
  config: string;
  errorLog(): string;
  close(): Promise<void>;
}

/**
 * Starts Debian's nginx as a non-daemon child, with its own prefix directory, configuration, logs and temp
 * paths, terminating TLS on a free port of 127.0.0.1 with a certificate made for the test and forwarding to
 * keel over plain HTTP with the reference proxy's header set. Throws with a one-line install hint when
 * nginx or openssl is missing.
 */
export async function startNginx({ upstreamPort, serverName = 'app.example.test', forwardedPort = 'client', bindAddress = '127.0.0.2', site }: NginxOptions): Promise<RunningNginx> {
  requireBinary(NGINX, 'nginx is missing: install it with `apt-get install -y nginx`');
  const prefix = mkdtempSync(join(tmpdir(), 'keel-nginx-'));
  const { certificate, certPath, keyPath } = createCertificate(prefix, serverName);
  for (const dir of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi', 'logs']) mkdirSync(join(prefix, dir));
  const port = await findFreePort();
  const config = renderConfig(prefix, site?.({ port, certPath, keyPath }) ?? renderSite({ port, upstreamPort, serverName, certPath, keyPath, forwardedPort, bindAddress }));
  writeFileSync(join(prefix, 'nginx.conf'), config);

  const child = spawn(NGINX, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const errorLog = (): string => readIfExists(join(prefix, 'logs', 'error.log'));
  try {
    await waitForPort(port, child, () => `${stderr}\n${errorLog()}`);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(prefix, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    certificate,
    serverName,
    config,
    errorLog,
    async close() {
      await stopChild(child);
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

/** A self-signed RSA certificate for `name` (CN and subjectAltName), made with the openssl command line. */
export function createCertificate(dir: string, name: string): { certificate: Buffer; certPath: string; keyPath: string } {
  const certPath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  const result = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${name}`, '-addext', `subjectAltName=DNS:${name}`, '-keyout', keyPath, '-out', certPath],
    { encoding: 'utf8' },
  );
  if (result.error !== undefined && (result.error as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new Error('openssl is missing: install it with `apt-get install -y openssl`');
  }
  if (result.status !== 0) throw new Error(`openssl could not make a certificate: ${result.stderr}`);
  return { certificate: readFileSync(certPath), certPath, keyPath };
}

function renderConfig(prefix: string, site: string): string {
  const p = (name: string): string => join(prefix, name);
  // As root, nginx would run its worker as `nobody`, which cannot enter the private temp directory.
  const user = process.getuid?.() === 0 ? 'user root;\n' : '';
  return `${user}worker_processes 1;
pid ${p('nginx.pid')};
error_log ${p('logs/error.log')} info;
events { worker_connections 512; }
http {
  access_log ${p('logs/access.log')};
  client_body_temp_path ${p('client_body')};
  proxy_temp_path ${p('proxy')};
  fastcgi_temp_path ${p('fastcgi')};
  uwsgi_temp_path ${p('uwsgi')};
  scgi_temp_path ${p('scgi')};
${site}
}
`;
}

function renderSite(o: { port: number; upstreamPort: number; serverName: string; certPath: string; keyPath: string; forwardedPort: 'client' | number; bindAddress: string }): string {
  return `  server {
    listen 127.0.0.1:${o.port} ssl;
    server_name ${o.serverName};
    ssl_certificate ${o.certPath};
    ssl_certificate_key ${o.keyPath};
    location / {
      proxy_pass http://127.0.0.1:${o.upstreamPort};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_bind ${o.bindAddress};
      proxy_redirect off;
${forwardedHeaders(o.forwardedPort)}
    }
  }`;
}

/** The reference proxy's header set, as nginx directives (also quoted in docs/deploy.md). */
export function forwardedHeaders(forwardedPort: 'client' | number): string {
  return [
    'proxy_set_header Host $host;',
    'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    'proxy_set_header X-Forwarded-Host $host;',
    `proxy_set_header X-Forwarded-Port ${forwardedPort === 'client' ? '$server_port' : forwardedPort};`,
    'proxy_set_header X-Forwarded-Proto $scheme;',
    'proxy_set_header X-Forwarded-Server $hostname;',
    'proxy_set_header X-Real-IP $remote_addr;',
  ]
    .map((line) => `      ${line}`)
    .join('\n');
}

function requireBinary(path: string, message: string): void {
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(message);
  }
}

function readIfExists(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

export function findFreePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, diagnostics: () => string): Promise<void> {
  let exited = false;
  child.once('exit', () => (exited = true));
  // Bounded: 100 tries 50 ms apart.
  for (let attempt = 0; attempt < 100; attempt++) {
    if (exited) throw new Error(`nginx exited before listening:\n${diagnostics()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nginx did not listen on ${port} within 5 s:\n${diagnostics()}`);
}

/** SIGQUIT is nginx's graceful stop; SIGKILL after 5 s if it has not exited. */
export function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGQUIT'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

/**
 * nginx in front of a demo that is already running, its options given the demo's port; the demo is closed
 * when nginx fails to start, so that a failed start leaves no server behind.
 */
export async function startNginxFor(demo: { port: number; close(): Promise<void> }, options: (upstreamPort: number) => Omit<NginxOptions, 'upstreamPort'>): Promise<RunningNginx> {
  try {
    return await startNginx({ upstreamPort: demo.port, ...options(demo.port) });
  } catch (error) {
    await demo.close();
    throw error;
  }
}

