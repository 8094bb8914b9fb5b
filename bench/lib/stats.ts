/** Small statistics over repeated measurements: medians, percentiles and ratios. */

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Linear interpolation between closest ranks; NaN for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const lowValue = sorted[low] as number;
  return lowValue + ((sorted[high] as number) - lowValue) * (rank - low);
}

/**
 * Median of the per-repetition ratios a[i] / b[i]: each pair was measured back to back, so the ratio
 * cancels out what the shared machine was doing at that moment better than a ratio of medians would.
 */
export function pairedRatio(a: readonly number[], b: readonly number[]): number {
  return median(pairedRatios(a, b));
}

/** The per-repetition ratios a[i] / b[i], pairs whose b[i] is not positive left out. */
export function pairedRatios(a: readonly number[], b: readonly number[]): number[] {
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const denominator = b[i] as number;
    if (denominator > 0) ratios.push((a[i] as number) / denominator);
  }
  return ratios;
}

/** Spread of the measurements as (max − min) / median, to show how noisy a row was. */
export function relativeSpread(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const mid = median(values);
  return mid === 0 ? 0 : (Math.max(...values) - Math.min(...values)) / mid;
}

/** Least-squares slope of y over x (y units per x unit); 0 with fewer than two points. */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return 0;
  let sx = 0, sy = 0;
  for (let i = 0; i < n; i++) {
    sx += xs[i] as number;
    sy += ys[i] as number;
  }
  const mx = sx / n, my = sy / n;
  let num = 0, den = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - mx;
    num += dx * ((ys[i] as number) - my);
    den += dx * dx;
  }
  return den === 0 ? 0 : num / den;
}
