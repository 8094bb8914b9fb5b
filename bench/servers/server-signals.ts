/**
 * What every benchmark server does besides serving: say READY on stdout once listening, answer the runner's
 * memory queries over the IPC channel when it has one, and exit cleanly on SIGTERM (so that `--cpu-prof`
 * gets to write its profile).
 */

/** A memory sample as the runner receives it. */
export interface MemorySample {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

export function announceReady(): void {
  process.stdout.write('READY\n');
}

export function answerMemoryQueries(): void {
  if (process.send === undefined) return;
  process.on('message', (message: unknown) => {
    if (message !== 'memory') return;
    const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
    const sample: MemorySample = { rss, heapUsed, heapTotal, external };
    process.send?.(sample);
  });
  // The channel must not keep an otherwise finished server alive.
  process.channel?.unref();
}

/** For peers with nothing to flush: exit at once on SIGTERM or SIGINT. */
export function exitOnSignal(close: () => void = () => {}): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      close();
      process.exit(0);
    });
  }
}
