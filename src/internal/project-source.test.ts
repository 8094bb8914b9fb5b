import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { projectPath, projectSourceLinker, sourceViewUrl } from './project-source.js';

describe('project sources', () => {
  it('names a file of the project by its path from the project, and no other file', () => {
    assert.equal(projectPath('/app', '/app/src/home.ts'), 'src/home.ts');
    assert.equal(projectPath('/app', '/app/node_modules/keel/src/app.ts'), 'node_modules/keel/src/app.ts');
    // What the source view refuses to open is not linked: outside, dot segments, the folder itself.
    for (const file of ['/elsewhere/x.ts', '/app/../etc/passwd', '/app/.env', '/app/src/.hidden/x.ts', '/app', 'node:internal/timers', 'src/home.ts']) {
      assert.equal(projectPath('/app', file), undefined, file);
    }
  });

  it("links to the profiler's view of the file at the line, behind the proxy prefix", () => {
    assert.equal(sourceViewUrl('', 'src/a b&c.ts', 7), '/_profiler/open?file=src%2Fa%20b%26c.ts&line=7#line7');
    const link = projectSourceLinker('/shop', '/app');
    assert.equal(link('/app/src/home.ts', 12), '/shop/_profiler/open?file=src%2Fhome.ts&line=12#line12');
    assert.equal(link('/lib/other.ts', 1), undefined);
  });
});
