import autocannon from 'autocannon';

export interface LoadOptions {
  port: number;
  path: string;
  headers: Record<string, string>;
  /** Requests to send; the run ends when they have all been answered. */
  amount: number;
  connections?: number;
  /** Every answer must have this status, or the run fails (a benchmark of the wrong page is worse than none). */
  expectStatus: number;
}

export interface LoadResult {
  served: number;
  seconds: number;
  requestsPerSecond: number;
  /** Latency percentiles in ms, from autocannon's histogram. */
  p50: number;
  p99: number;
}

/** Sends a fixed number of requests with autocannon from this process over keep-alive connections. */
export async function drive({ port, path, headers, amount, connections = 10, expectStatus }: LoadOptions): Promise<LoadResult> {
  let first = 0;
  let last = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}${path}`,
        method: 'GET',
        headers,
        amount,
        connections,
        pipelining: 1,
        timeout: 10,
        // autocannon notices that `amount` is reached on its sampling tick: 100 ms instead of a whole second.
        sampleInt: 100,
      },
      (error: unknown, done: autocannon.Result) => (error ? reject(error as Error) : resolve(done)),
    );
    instance.on('response', () => {
      last = performance.now();
      if (first === 0) first = last;
    });
  });
  // The rate between the first and the last answer, without autocannon's start-up and closing tick.
  const seconds = (last - first) / 1000;
  const served = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
  const matching = result.statusCodeStats?.[String(expectStatus) as `${number}`]?.count ?? 0;
  // A socket error or two (a keep-alive race on a starved core) costs nothing but those requests, which
  // are not counted; a wrong status, or errors on most connections, means the run measured the wrong thing.
  if (matching !== served || result.errors > connections) {
    throw new Error(`GET ${path} on port ${port}: ${served} answers, ${matching} with status ${expectStatus}, ${result.errors} errors`);
  }
  return { served, seconds, requestsPerSecond: (served - 1) / seconds, p50: result.latency.p50, p99: result.latency.p99 };
}
