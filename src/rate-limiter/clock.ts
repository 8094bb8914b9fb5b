/** Milliseconds since the epoch. Policies never read the global clock: tests move this one by hand. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
