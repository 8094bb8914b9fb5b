/** What makes a request's signal: the server adapter's, which watches the connection. */
export interface SignalSource {
  signal(): AbortSignal;
}

// The signal of a request that has no client to lose (one built by hand, a test's).
const NEVER_ABORTED = new AbortController().signal;

/** The signal itself, made from its source on first use; one that never aborts when there is none. */
export function signalOf(source: AbortSignal | SignalSource | undefined): AbortSignal {
  if (source === undefined) return NEVER_ABORTED;
  return source instanceof AbortSignal ? source : source.signal();
}
