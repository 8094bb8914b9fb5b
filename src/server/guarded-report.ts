/**
 * A report that cannot throw: one that does (an application's logger whose sink fails) must take neither
 * the answer nor the process with it, since the request listener runs in node's `request` event, where a
 * throw is uncaught, a rejected terminate is reported from a promise no one else waits for, and a send
 * timeout from a timer.
 */
export function guarded<A extends unknown[]>(report: ((...args: A) => void) | undefined): ((...args: A) => void) | undefined {
  if (report === undefined) return undefined;
  return (...args) => {
    try {
      report(...args);
    } catch {
      // Nothing left to tell it to: the failure it reported is answered all the same.
    }
  };
}
