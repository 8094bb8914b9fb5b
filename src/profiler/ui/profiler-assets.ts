import { readFileSync } from 'node:fs';

// A fixed allow-list read once at start-up: a request names an entry, never a path.
const ASSETS = new Map<string, { body: string; type: string }>(
  ['profiler.css', 'toolbar.css'].map((name) => [name, { body: readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8'), type: 'text/css; charset=UTF-8' }]),
);

export function findProfilerAsset(name: string): { body: string; type: string } | undefined {
  return ASSETS.get(name);
}
