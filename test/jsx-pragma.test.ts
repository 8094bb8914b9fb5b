import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

// An application that imports keel compiles keel's views with its own tsconfig, whose JSX settings may be
// React's, or with none at all (esbuild then calls React.createElement): each view names the automatic
// runtime and preact itself, so that it renders the same wherever it is compiled from.
function viewsUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return viewsUnder(path);
    return entry.name.endsWith('.tsx') ? [path] : [];
  });
}

describe('JSX views', () => {
  const root = join(import.meta.dirname, '..');
  for (const file of [...viewsUnder(join(root, 'src')), ...viewsUnder(join(root, 'demo'))]) {
    it(`${file.slice(root.length + 1)} declares its JSX runtime`, () => {
      const pragma = readFileSync(file, 'utf8').split('\n', 1)[0] ?? '';
      assert.match(pragma, /@jsxRuntime automatic/);
      assert.match(pragma, /@jsxImportSource preact/);
    });
  }
});
