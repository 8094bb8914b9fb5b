/**
 * The size rules of the file storage (FileProfileStore): how many records one batch writes, how index
 * segments are sized and checked, and the most index lines these rules let the store keep, which the
 * soak test asserts from here rather than from a copy of the rules.
 */

/**
 * Records written together at most (~50 µs each): a busy server queues about two per request it answers in
 * an event-loop turn, and a batch must take them all, or the queue grows until records are dropped.
 */
export const MAX_BATCH = 256;

/** Rings of processes gone are looked for at most this often (a folder listing and a stat per ring). */
export const RING_SWEEP_MS = 60_000;

/** Lines per index segment unless configured: a quarter of maxRecords. */
export function defaultSegmentRecords(maxRecords: number): number {
  return Math.max(1, Math.ceil(maxRecords / 4));
}

/** Lines appended between two looks at the current segment's size: a quarter segment. */
export function sealCheckInterval(segmentRecords: number): number {
  return Math.max(1, Math.floor(segmentRecords / 4));
}

/**
 * The most index lines a store with default segments keeps on disk: segments are deleted whole, and only
 * when one is sealed, once newer ones hold maxRecords lines; so maxRecords, the oldest segment still
 * needed, and the current one growing until the next seal. A segment is sealed when a check finds it
 * full, so each can pass its size by a check interval and one batch.
 */
export function indexLinesBound(maxRecords: number): number {
  const segment = defaultSegmentRecords(maxRecords);
  return maxRecords + 2 * (segment + sealCheckInterval(segment) + MAX_BATCH);
}
