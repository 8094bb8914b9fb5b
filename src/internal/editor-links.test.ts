import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { editorFormat, editorUrl } from './editor-links.js';
import { projectSourceLinker } from './project-source.js';

describe('editor links', () => {
  it("takes a known editor's name, in any case, or a URL format of one's own with %f", () => {
    assert.equal(editorFormat('vscode'), 'vscode://file/%f:%l');
    assert.equal(editorFormat('PhpStorm'), 'phpstorm://open?file=%f&line=%l');
    assert.equal(editorFormat('myide://open?file=%f&line=%l'), 'myide://open?file=%f&line=%l');
  });

  it('refuses a name it does not know, a format without the file, and schemes a page would run or open itself', () => {
    for (const setting of ['notepad', 'constructor', '__proto__', 'toString', 'hasOwnProperty', 'myide://open', 'javascript:alert(%f)', 'JavaScript:alert(%f)', 'data:text/html,%f', 'file:///%f', '%f']) {
      assert.equal(editorFormat(setting), undefined, setting);
    }
  });

  it('writes the path and line into the format, the path encoded where a URL needs it', () => {
    // The absolute path after the format's `file/`, as Symfony writes its vscode links.
    assert.equal(editorUrl('vscode://file/%f:%l', '/app/src/my file#1?.ts', 12), 'vscode://file//app/src/my%20file%231%3F.ts:12');
    // In a query, a raw `&` would end the file's value: `file=/app/a` and a parameter `b.ts`.
    assert.equal(editorUrl('phpstorm://open?file=%f&line=%l', '/app/a&b.ts', 3), 'phpstorm://open?file=/app/a%26b.ts&line=3');
    // With an editor, every file with a path links, the project's or not; without, only the project's, to the profiler.
    const linked = projectSourceLinker('', '/app', 'vscode://file/%f:%l');
    assert.equal(linked('/usr/lib/node/x.js', 3), 'vscode://file//usr/lib/node/x.js:3');
    assert.equal(linked('node:internal/timers', 3), undefined);
    assert.equal(projectSourceLinker('', '/app')('/usr/lib/node/x.js', 3), undefined);
  });
});
