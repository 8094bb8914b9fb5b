import fc from 'fast-check';

/**
 * Paths near a route table, for property tests: a route's path with its placeholders filled in from
 * `segment`, or any `/`-joined run of segments.
 */
export function pathsNear(routePaths: readonly string[], segment: fc.Arbitrary<string>, maxSegments: number): fc.Arbitrary<string> {
  const filled = fc.tuple(fc.constantFrom(...routePaths), fc.array(segment, { minLength: 3, maxLength: 3 })).map(([path, values]) => {
    let i = 0;
    return path.replace(/\{[^}]*\}/g, () => values[i++ % values.length] as string);
  });
  return fc.oneof(filled, fc.array(segment, { maxLength: maxSegments }).map((segments) => `/${segments.join('/')}`));
}
