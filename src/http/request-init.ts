import type { IncomingHttpHeaders } from 'node:http';
import type { HeaderLines } from './header-lines.js';
import type { OriginResolver } from './request-origin.js';
import type { SignalSource } from './request-signal.js';

/**
 * A body read when first asked for (the server adapter's: node's request stream, bounded). An object, not
 * a function bound to the stream: Function#bind cost a matched JSON route a sixth of keel's time.
 */
export interface BodySource {
  read(): Promise<Buffer>;
}

export interface RequestInit {
  method: string;
  /** The request-target as sent: raw path plus optional query string. */
  target: string;
  /**
   * The headers, as a record, or as lines (node's IncomingMessage has them, see HeaderLines): then
   * header() reads the lines and the record is built on first use of `headers`. Only the lines are kept.
   */
  headers?: IncomingHttpHeaders | HeaderLines;
  /** Address of the TCP peer (the proxy, when there is one). */
  remoteAddress?: string;
  remotePort?: number;
  /** The port the connection came in on: the port of URLs for a request that names no host (the reference's SERVER_PORT). */
  localPort?: number;
  /** True when the connection itself is TLS. */
  encrypted?: boolean;
  httpVersion?: string;
  body?: string | Buffer | (() => Promise<Buffer>) | BodySource;
  resolveOrigin?: OriginResolver;
  /** The signal that aborts when the client goes away (see `signal`), or what makes it on first use. */
  signal?: AbortSignal | SignalSource;
}
