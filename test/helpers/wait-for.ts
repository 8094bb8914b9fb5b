import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Waits until `condition` holds, looking every 10 ms, and fails the test when it still does not after
 * `ms`: for what a server does in the background (a log line written, a source closed). A bound, never a
 * measure: nothing asserts how long it took.
 */
export async function waitFor(condition: () => boolean, ms = 5000): Promise<void> {
  for (let waited = 0; waited < ms && !condition(); waited += 10) await sleep(10);
  assert.ok(condition(), `the condition was not met within ${ms} ms`);
}
