import pino from 'pino';
import { messageOf } from '../errors/flat-error.js';

// Causes copied at most this deep, as Monolog's normalisation stops at its depth.
const MAX_COPY_DEPTH = 9;

/**
 * pino's errWithCause serializer, for any error: it marks each error it visits with a property of its own,
 * which a frozen or non-extensible error (or cause) refuses with a TypeError; that throw had taken the log
 * line down, and with it the handling of the error being logged. Such an error is serialised from a copy,
 * and one that cannot even be copied (its getters throw) as its class and message.
 */
export function serializeError(error: unknown): unknown {
  try {
    return pino.stdSerializers.errWithCause(error as Error);
  } catch {
    try {
      return pino.stdSerializers.errWithCause(extensibleCopy(error, 0) as Error);
    } catch {
      return { type: 'Error', message: messageOf(error) };
    }
  }
}

// Own properties and the inherited name, message and stack, as plain values on an object of the same
// prototype (so that it is still error-like); causes and aggregated errors copied in turn.
function extensibleCopy(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null || depth > MAX_COPY_DEPTH) return value;
  const copy = Object.create(Object.getPrototypeOf(value) as object | null) as Record<PropertyKey, unknown>;
  const source = value as Record<PropertyKey, unknown>;
  for (const key of ['name', 'message', 'stack', ...Reflect.ownKeys(source)]) {
    const item = source[key];
    copy[key] = key === 'cause' ? extensibleCopy(item, depth + 1) : key === 'errors' && Array.isArray(item) ? item.map((entry) => extensibleCopy(entry, depth + 1)) : item;
  }
  return copy;
}
