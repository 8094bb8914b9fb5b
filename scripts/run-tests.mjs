// Runs every test file with node's test runner. Node 20 does not expand globs itself, so the file list is
// built here: unit tests beside the code (src/**/*.test.ts(x), bench/), cross-module suites under test/.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureSystemPackages } from './system-packages.mjs';

const roots = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['src', 'test', 'demo', 'bench'];

function collect(path, out) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return out;
  if (stat.isFile()) {
    if (/\.test\.tsx?$/.test(path)) out.push(path);
    return out;
  }
  for (const entry of readdirSync(path).sort()) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    collect(join(path, entry), out);
  }
  return out;
}

ensureSystemPackages();

const files = roots.flatMap((root) => collect(root, []));
if (files.length === 0) {
  console.error('no test files found under ' + roots.join(', '));
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
