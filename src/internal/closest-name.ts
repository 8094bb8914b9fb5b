/**
 * The candidate a mistyped name was most likely meant to be: the same but for case, or at most two edits
 * away (Levenshtein) and closer than any other; undefined when none is that close.
 * @example closestName('requirement', ['requirements', 'defaults']) // 'requirements'
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of candidates) {
    if (candidate.toLowerCase() === lower) return candidate;
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** ` (did you mean "x"?)`, or nothing: for the end of an error's first clause. */
export function didYouMean(name: string, candidates: readonly string[]): string {
  const closest = closestName(name, candidates);
  return closest === undefined ? '' : ` (did you mean "${closest}"?)`;
}

function editDistance(a: string, b: string): number {
  // Names are short: one row of the table at a time.
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
