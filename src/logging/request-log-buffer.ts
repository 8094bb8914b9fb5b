/**
 * Monolog's FingersCrossedHandler, per request (the reference's prod logging: `fingers_crossed`,
 * action_level error, buffer_size 50): a request's records below the action level wait in a buffer of
 * at most `size` (oldest dropped first); a record at the action level or above writes the buffer, then
 * itself, and from then on that request's records go straight through. A request that ends without one
 * leaves nothing behind: its buffer is a slot of the request's own (its RequestStack's), so it goes with
 * it. Not a WeakMap keyed by the request: V8 keeps such entries through young-generation collections, which
 * promoted every request with its held records to the old generation. Records logged outside any request
 * are never held back.
 */
export class RequestLogBuffer<T> {
  readonly actionLevel: number;
  readonly size: number;

  /** `actionLevel` and the levels given to offer() are indexes in one severity order (higher is worse). */
  constructor({ actionLevel, size = 50 }: { actionLevel: number; size?: number }) {
    this.actionLevel = actionLevel;
    this.size = size;
  }

  /** The records to write now, in order: none while the request's records are held back. */
  offer(owner: HeldLogsSlot | undefined, level: number, record: T): readonly T[] {
    if (owner === undefined) return [record];
    const held = owner.heldLogs as T[] | true | undefined;
    if (held === true) return [record];
    if (level >= this.actionLevel) {
      owner.heldLogs = true;
      return held === undefined ? [record] : [...held, record];
    }
    if (held === undefined) {
      owner.heldLogs = [record];
    } else {
      held.push(record);
      if (held.length > this.size) held.shift();
    }
    return NONE;
  }
}

/** Where a request keeps its held records: undefined before any, true once they were let through. */
export interface HeldLogsSlot {
  heldLogs?: unknown[] | true;
}

const NONE: readonly never[] = Object.freeze([]);
