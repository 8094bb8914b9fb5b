import { promisify } from 'node:util';
import { gunzip, gzipSync } from 'node:zlib';
import { Redis, type RedisOptions } from 'ioredis';
import { trackConnectionError, withConnectionCause } from '../internal/connection-error.js';
import type { Profile, ProfileSummary } from './profile.js';
import { summarizeProfile } from './profile.js';
import { stringifyProfile } from './profile-json.js';
import { formatIndexLine, parseIndexLine } from './profile-index.js';
import { matchesQuery, type ProfileQuery, type ProfileStore } from './profile-store.js';
import { isProfileToken } from './token.js';

const gunzipAsync = promisify(gunzip);
// Redis rejects an EX too large to add to the current time; ten years is "forever" for a debug record.
const MAX_TTL = 10 * 365 * 86400;
const PAGE = 200;
const COMMAND_TIMEOUT_MS = 2_000;
// Commands sent and not answered yet, past which a write is refused without being sent (see write()).
const MAX_UNANSWERED = 1_000;

/**
 * One atomic write: the record (with a TTL), its index line, its place in the time-ordered index (a record
 * written again under its token replaces both, as the newest, as the file store's newest line does),
 * then trimming by age and by count, deleting the records trimmed. Scores are `time × 10⁶`, or one more
 * than the last score given when that is not above it: records of the same second keep their write order
 * (1_800_000_000 s, the third write in it → 1_800_000_000_000_002), and so do records written after the
 * clock stepped back, which a score below the others' would have trimmed away as the oldest at once.
 * KEYS: record, summaries, index, last score. ARGV: token, data, line, time, ttl, maxRecords, cutoff, prefix.
 */
const WRITE_SCRIPT = `
local function remove(token)
  redis.call('ZREM', KEYS[3], token)
  redis.call('HDEL', KEYS[2], token)
  redis.call('DEL', ARGV[8] .. 'record:' .. token)
end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[5])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
local score = string.format('%.0f', math.max(tonumber(ARGV[4]) * 1000000, tonumber(redis.call('GET', KEYS[4]) or '0') + 1))
redis.call('SET', KEYS[4], score)
redis.call('ZADD', KEYS[3], score, ARGV[1])
for _, token in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', '(' .. string.format('%.0f', tonumber(ARGV[7]) * 1000000), 'LIMIT', 0, 1000)) do
  remove(token)
end
local excess = redis.call('ZCARD', KEYS[3]) - tonumber(ARGV[6])
if excess > 0 then
  for _, token in ipairs(redis.call('ZRANGE', KEYS[3], 0, excess - 1)) do remove(token) end
end
return 1
`;

export interface RedisProfileStoreOptions {
  /** `redis://host:port/db`. */
  url?: string;
  /** An existing client (then not closed by `close`). */
  client?: Redis;
  /** Key prefix: several applications can share one server. */
  prefix?: string;
  maxRecords?: number;
  /** Seconds. */
  maxAge?: number;
  /** ms since the epoch. */
  clock?: () => number;
  /** Commands the connection may hold unanswered before a write fails without being sent. */
  maxUnanswered?: number;
}

type ScriptClient = Redis & { keelProfileWrite(...args: (string | number | Buffer)[]): Promise<number> };

/**
 * Profiles in Redis, so that every instance behind a load balancer serves any record: gzip'd JSON per
 * record under `<prefix>record:<token>` with a TTL of maxAge, the index lines in a hash, and a sorted set
 * ordering tokens by time. Writes are one Lua script, so concurrent writers never leave the index and the
 * records out of step.
 * @example const store = new RedisProfileStore({ url: 'redis://127.0.0.1:6379', maxRecords: 500 });
 */
export class RedisProfileStore implements ProfileStore {
  readonly #client: ScriptClient;
  readonly #owned: boolean;
  readonly #prefix: string;
  readonly #maxRecords: number;
  readonly #maxAge: number;
  readonly #clock: () => number;
  readonly #connectionError: () => Error | undefined;
  readonly #maxUnanswered: number;
  // Whether the connection has closed since it was last ready (see #down).
  #closed: boolean;

  constructor({ url = 'redis://127.0.0.1:6379', client, prefix = 'keel:profiler:', maxRecords = 1000, maxAge = 2 * 86400, clock = Date.now, maxUnanswered = MAX_UNANSWERED }: RedisProfileStoreOptions = {}) {
    // A stalled server (connected, not answering) fails each command after COMMAND_TIMEOUT_MS: profiler
    // pages, the CLI and shutdown (`quit`, the pending writes) would otherwise wait for as long as it stalls.
    const options: RedisOptions = { maxRetriesPerRequest: 2, connectTimeout: 2_000, commandTimeout: COMMAND_TIMEOUT_MS, retryStrategy: (attempt) => Math.min(attempt * 100, 1_000) };
    const redis = client ?? new Redis(url, options);
    // Failed writes are logged by the profiler, with what the connection said (see #explained).
    this.#connectionError = client === undefined ? trackConnectionError(redis) : () => undefined;
    redis.defineCommand('keelProfileWrite', { numberOfKeys: 4, lua: WRITE_SCRIPT });
    this.#client = redis as ScriptClient;
    this.#owned = client === undefined;
    this.#prefix = prefix;
    this.#maxRecords = maxRecords;
    this.#maxAge = maxAge;
    this.#clock = clock;
    this.#maxUnanswered = maxUnanswered;
    this.#closed = redis.status === 'reconnecting' || redis.status === 'close' || redis.status === 'end';
    redis.on('close', () => (this.#closed = true));
    redis.on('ready', () => (this.#closed = false));
  }

  find(query: ProfileQuery): Promise<ProfileSummary[]> {
    const down = this.#down();
    return down === undefined ? this.#explained(this.#find(query)) : Promise.reject(down);
  }

  async #find(query: ProfileQuery): Promise<ProfileSummary[]> {
    const found: ProfileSummary[] = [];
    const cutoff = this.#cutoff();
    // Paged by score, below the last one seen, not by rank: records other instances add meanwhile go on
    // top and would push the ranks down, listing some records twice.
    for (let below = '+inf'; found.length < query.limit; ) {
      const page = await this.#client.zrevrangebyscore(this.#key('index'), below, '-inf', 'WITHSCORES', 'LIMIT', 0, PAGE);
      if (page.length === 0) break;
      const tokens = page.filter((_, i) => i % 2 === 0);
      below = `(${page[page.length - 1]!}`;
      const lines = await this.#client.hmget(this.#key('summaries'), ...tokens);
      for (const line of lines) {
        const summary = line === null ? undefined : parseIndexLine(line.replace(/\n$/, ''));
        if (summary === undefined || summary.time < cutoff || !matchesQuery(summary, query)) continue;
        found.push(summary);
        if (found.length === query.limit) break;
      }
    }
    return found;
  }

  async read(token: string): Promise<Profile | undefined> {
    if (!isProfileToken(token)) return undefined;
    const down = this.#down();
    if (down !== undefined) throw down;
    const data = await this.#explained(this.#client.getBuffer(this.#key(`record:${token}`)));
    if (data === null) return undefined;
    try {
      const profile = JSON.parse((await gunzipAsync(data)).toString('utf8')) as Profile;
      if (profile.token !== token || profile.time < this.#cutoff()) return undefined;
      return { ...profile, parent: profile.parent ?? undefined };
    } catch {
      return undefined;
    }
  }

  async write(profile: Profile): Promise<void> {
    if (!isProfileToken(profile.token)) throw new TypeError(`Invalid profile token "${profile.token}".`);
    // A stalled server (connected, not answering) gets a few hundred writes every COMMAND_TIMEOUT_MS from
    // the profiler, and the client keeps each one it times out, record included, until its reply or the
    // connection's end, neither of which a stall brings: its queue grew by ~130 commands a second for as
    // long as the stall lasted. Past the bound the write fails unsent, and its record stays in memory.
    const unanswered = this.#client.commandQueue.length;
    if (unanswered >= this.#maxUnanswered) throw withConnectionCause(new Error(`${unanswered} commands sent to Redis still unanswered`), this.#connectionError());
    // Synchronous (a few tens of µs for a record): the script calls go out in the order write() was
    // called, which is the order the index sequence must follow (a request's records, children first).
    const data = gzipSync(stringifyProfile(profile), { level: 3 });
    await this.#explained(this.#client.keelProfileWrite(
      this.#key(`record:${profile.token}`),
      this.#key('summaries'),
      this.#key('index'),
      this.#key('sequence'),
      profile.token,
      data,
      formatIndexLine(summarizeProfile(profile)),
      profile.time,
      Math.max(1, Math.min(this.#maxAge, MAX_TTL)),
      this.#maxRecords,
      Math.max(this.#cutoff(), -1e9),
      this.#prefix,
    ));
  }

  async purge(): Promise<void> {
    const tokens = await this.#client.zrange(this.#key('index'), 0, -1);
    for (let i = 0; i < tokens.length; i += PAGE) {
      await this.#client.del(...tokens.slice(i, i + PAGE).map((token) => this.#key(`record:${token}`)));
    }
    await this.#client.del(this.#key('index'), this.#key('summaries'), this.#key('sequence'));
  }

  async close(): Promise<void> {
    if (this.#owned) await this.#client.quit().catch(() => this.#client.disconnect());
  }

  // A failed command names what the connection last said: 'Reached the max retries per request limit'
  // alone, on a profiler page's 503 or in the log, does not tell a refused connection from a password.
  async #explained<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (error) {
      throw withConnectionCause(error, this.#connectionError());
    }
  }

  /**
   * Why a read would go unanswered, when that is known without sending it: the connection closed since it
   * was last ready (Redis stopped, unreachable, or the URL's database refused). The client would queue the
   * command until it has failed to reconnect a few times, some 2 s, and every profiler page (a search,
   * `latest`) waited for that before showing what memory holds. Writes still wait: one queued during a
   * restart is written once the client reconnects, and the record stays in memory if it fails.
   */
  #down(): Error | undefined {
    if (!this.#closed || this.#client.status === 'ready') return undefined;
    return withConnectionCause(new Error('not connected to Redis'), this.#connectionError());
  }

  #key(name: string): string {
    return `${this.#prefix}${name}`;
  }

  #cutoff(): number {
    return Math.floor(this.#clock() / 1000) - this.#maxAge;
  }
}
