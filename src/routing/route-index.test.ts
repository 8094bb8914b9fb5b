import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { RouteCollection } from './route-collection.js';
import { RouteIndex } from './route-index.js';

describe('RouteIndex.staticRoutes', () => {
  const segment = fc.constantFrom('a', 'bb', 'ccc', 'dddd');
  const staticPath = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => `/${segments.join('/')}`);

  it('finds the static routes of a path, the longest included, and none for a longer path', () => {
    fc.assert(
      fc.property(fc.uniqueArray(staticPath, { minLength: 1, maxLength: 8 }), staticPath, (paths, path) => {
        const index = new RouteIndex(new RouteCollection().addAll(paths.map((p, i) => ({ name: `r${i}`, path: p }))));
        for (const p of [...paths, path, `${path}/x`]) {
          assert.deepEqual(
            index.staticRoutes(p).map((route) => route.path),
            paths.filter((candidate) => candidate === p),
            p,
          );
        }
      }),
      { numRuns: 300 },
    );
  });
});
