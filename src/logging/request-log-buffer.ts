/**
 * Monolog's FingersCrossedHandler, per request (the reference's prod logging: `fingers_crossed`,
 * action_level error, buffer_size 50): a request's records below the action level wait in a buffer of
 * at most `size` (oldest dropped first); a record at the action level or above writes the buffer, then
 * itself, and from then on that request's records go straight through. A request that ends without one
 * leaves nothing behind: its buffer goes with it (weakly held). Records logged outside any request are
 * never held back.
 */
export class RequestLogBuffer<T> {
  readonly actionLevel: number;
  readonly size: number;
  #buffers = new WeakMap<object, T[] | typeof PASSING>();

  /** `actionLevel` and the levels given to offer() are indexes in one severity order (higher is worse). */
  constructor({ actionLevel, size = 50 }: { actionLevel: number; size?: number }) {
    this.actionLevel = actionLevel;
    this.size = size;
  }

  /** The records to write now, in order: none while the request's records are held back. */
  offer(owner: object | undefined, level: number, record: T): readonly T[] {
    if (owner === undefined) return [record];
    const held = this.#buffers.get(owner);
    if (held === PASSING) return [record];
    if (level >= this.actionLevel) {
      this.#buffers.set(owner, PASSING);
      return held === undefined ? [record] : [...held, record];
    }
    if (held === undefined) {
      this.#buffers.set(owner, [record]);
    } else {
      held.push(record);
      if (held.length > this.size) held.shift();
    }
    return NONE;
  }
}

const PASSING = Symbol('passing');
const NONE: readonly never[] = Object.freeze([]);
