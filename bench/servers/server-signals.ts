/**
 * What every benchmark server does besides serving: say READY on stdout once listening, answer the runner's
 * queries over the IPC channel when it has one (memory figures; a CPU profile of the requests between two
 * messages, so that a profile leaves out start-up and warm-up), and exit cleanly on SIGTERM.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

/** A memory sample as the runner receives it. */
export interface MemorySample {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

/** `READY`, then what the server wants the runner to check (the settings it really runs with). */
export function announceReady(detail?: string): void {
  process.stdout.write(detail === undefined ? 'READY\n' : `READY ${detail}\n`);
}

/** What the runner may send; each message gets one answer. */
export type RunnerQuery = 'memory' | { cpuProfile: 'start'; intervalMicros: number } | { cpuProfile: 'stop'; file: string };

export function answerRunnerQueries(): void {
  if (process.send === undefined) return;
  let session: Session | undefined;
  process.on('message', (message: RunnerQuery) => {
    if (message === 'memory') {
      const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
      const sample: MemorySample = { rss, heapUsed, heapTotal, external };
      process.send?.(sample);
      return;
    }
    if (message.cpuProfile === 'start') {
      const profiler = (session = new Session());
      profiler.connect();
      // Each step answers the runner with its error, rather than leaving it to wait for a timeout.
      const answer = (error: Error | null, next: () => void): void => {
        if (error === null) next();
        else process.send?.(`failed: ${error.message}`);
      };
      profiler.post('Profiler.enable', (enabled) =>
        answer(enabled, () =>
          profiler.post('Profiler.setSamplingInterval', { interval: message.intervalMicros }, (set) =>
            answer(set, () => profiler.post('Profiler.start', (started) => answer(started, () => process.send?.('started')))),
          ),
        ),
      );
      return;
    }
    const profiler = session;
    session = undefined;
    if (profiler === undefined) {
      process.send?.('failed: no profile was started');
      return;
    }
    profiler.post('Profiler.stop', (error, result) => {
      if (error === null) writeFileSync(message.file, JSON.stringify(result.profile));
      profiler.disconnect();
      process.send?.(error === null ? 'stopped' : `failed: ${error.message}`);
    });
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
