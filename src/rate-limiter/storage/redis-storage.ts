import { Redis, type Cluster, type RedisOptions } from 'ioredis';
import { trackConnectionError, withConnectionCause } from '../../internal/connection-error.js';
import type { Decision, PolicySpec } from '../policies/policy.js';
import { REFUND_SCRIPT, RESERVE_SCRIPT } from './reserve-script.js';
import type { Storage } from './storage.js';

// A sliding window adds its end (windowEnd).
type ReserveReply = [string, string, string, string, string, string, string?];
type ScriptClient = (Redis | Cluster) & {
  keelReserve(key: string, ...args: (string | number)[]): Promise<ReserveReply>;
  keelRefund(key: string, ...args: (string | number)[]): Promise<number>;
};

export interface RedisStorageOptions {
  /** `redis://[:password@]host:port[/db]`; ignored when `client` is given. */
  url?: string;
  /** A client of the application's own (Redis or Cluster); it is not closed by `close()`. */
  client?: Redis | Cluster;
  /** Key prefix; the limiter id is wrapped in `{…}`, a hash tag, so each key maps to one Cluster slot. */
  prefix?: string;
  /** Milliseconds a command may take before it fails (ioredis `commandTimeout`), and the first connection. */
  commandTimeout?: number;
  /**
   * Milliseconds a sent command's reply is still awaited, when longer than commandTimeout: a caller that
   * gave up earlier (GuardedStorage's deadline) then still learns what a late reservation took, to refund it.
   */
  replyTimeout?: number;
  /** Commands the connection may hold unanswered before a reservation fails without being sent. */
  maxUnanswered?: number;
}

/**
 * Limiter state in Redis, shared by every process and host that points at the same server. Each
 * reservation is one EVALSHA of RESERVE_SCRIPT: read, decide and write happen atomically on the server,
 * so concurrent requests from many processes never admit more than the limit. While Redis is down,
 * commands fail at once instead of queueing (`enableOfflineQueue: false`) and the client reconnects by itself.
 * @example const storage = new RedisStorage({ url: 'redis://127.0.0.1:6379' });
 */
export class RedisStorage implements Storage {
  readonly #client: ScriptClient;
  readonly #owned: boolean;
  readonly #prefix: string;
  readonly #firstReady: Promise<void>;
  readonly #timeout: number;
  readonly #lastError: () => Error | undefined;
  readonly #maxUnanswered: number;

  constructor({ url = 'redis://127.0.0.1:6379', client, prefix = 'keel:rl:', commandTimeout = 200, replyTimeout = commandTimeout, maxUnanswered = 1_000 }: RedisStorageOptions = {}) {
    const options: RedisOptions = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: Math.max(commandTimeout, replyTimeout),
      connectTimeout: Math.max(commandTimeout, 1_000),
      retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
      lazyConnect: false,
    };
    const redis = client ?? new Redis(url, options);
    // Outages are reported by the caller, with what the connection last said (see trackConnectionError).
    this.#lastError = client === undefined ? trackConnectionError(redis) : () => undefined;
    redis.defineCommand('keelReserve', { numberOfKeys: 1, lua: RESERVE_SCRIPT });
    redis.defineCommand('keelRefund', { numberOfKeys: 1, lua: REFUND_SCRIPT });
    this.#client = redis as ScriptClient;
    this.#owned = client === undefined;
    this.#prefix = prefix;
    this.#timeout = commandTimeout;
    this.#maxUnanswered = maxUnanswered;
    this.#firstReady = redis.status === 'ready' ? Promise.resolve() : new Promise((resolve) => redis.once('ready', () => resolve()));
  }

  /** Resolves once the client is connected (tests and start-up checks); rejects once it has ended for good. */
  async ready(): Promise<void> {
    const client = this.#client;
    if (client.status === 'ready') return;
    // An ended client emits nothing more (one refused its URL's database is ended at once, see
    // trackConnectionError): waiting for its 'end' would never settle.
    if (client.status === 'end') throw this.#ended();
    await new Promise<void>((resolve, reject) => {
      const onReady = () => {
        client.off('end', onEnd);
        resolve();
      };
      const onEnd = () => {
        client.off('ready', onReady);
        reject(this.#ended());
      };
      client.once('ready', onReady);
      client.once('end', onEnd);
    });
  }

  #ended(): Error {
    return withConnectionCause(new Error('redis connection ended'), this.#lastError());
  }

  async reserve(id: string, spec: PolicySpec, tokens: number, now: number, maxWait: number): Promise<Decision> {
    // Only the very first connection is waited for (bounded by the caller's deadline): afterwards a
    // disconnected client fails at once and reconnects in the background.
    // `connect` too: the socket is open, the ready check not answered yet, and a command would be refused.
    const status = this.#client.status;
    if (status === 'connecting' || status === 'wait' || status === 'connect') await this.#awaitFirstConnection();
    // The client times a command out after replyTimeout but keeps it until its reply or the connection's
    // end, neither of which a Redis stalled connected brings: GuardedStorage's bound on abandoned
    // reservations lapsed with each timeout, and a busy process sent a thousand more every 30 s for as long
    // as the stall lasted. (A Cluster client keeps no single queue; it is not supported anyway.)
    const unanswered = 'commandQueue' in this.#client ? this.#client.commandQueue.length : 0;
    if (unanswered >= this.#maxUnanswered) throw new Error(`${unanswered} commands sent to Redis still unanswered`);
    const reply = await this.#client.keelReserve(
      this.#key(id),
      spec.policy,
      spec.limit,
      spec.interval,
      spec.rate?.interval ?? spec.interval,
      spec.rate?.amount ?? 1,
      tokens,
      now,
      maxWait,
    );
    const [reserved, accepted, remaining, retryAfter, timeToAct, resetAt, windowEnd] = reply;
    const decision: Decision = {
      reserved: reserved === '1',
      accepted: accepted === '1',
      remaining: Number(remaining),
      limit: spec.limit,
      retryAfter: Number(retryAfter),
      timeToAct: Number(timeToAct),
      resetAt: Number(resetAt),
    };
    if (windowEnd !== undefined) decision.windowEnd = Number(windowEnd);
    return decision;
  }

  async #awaitFirstConnection(): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`not connected within ${this.#timeout} ms`)), this.#timeout);
    });
    try {
      await Promise.race([this.#firstReady, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  lastError(): Error | undefined {
    return this.#lastError();
  }

  async refund(id: string, spec: PolicySpec, tokens: number, decision: Decision): Promise<void> {
    await this.#client.keelRefund(this.#key(id), spec.policy, spec.limit, spec.interval, tokens, decision.windowEnd ?? decision.resetAt);
  }

  async reset(id: string): Promise<void> {
    await this.#client.del(this.#key(id));
  }

  async close(): Promise<void> {
    if (!this.#owned) return;
    this.#client.disconnect();
  }

  #key(id: string): string {
    // Braces inside the id would end the hash tag early: escaped as %7B and %7D, and `%` as %25, so that
    // two ids never share a key (`user-{a}` and `user-_a_` did, and so one quota).
    return `${this.#prefix}{${id.replace(/[%{}]/g, (char) => ESCAPED[char]!)}}`;
  }
}

const ESCAPED: Record<string, string> = { '%': '%25', '{': '%7B', '}': '%7D' };
