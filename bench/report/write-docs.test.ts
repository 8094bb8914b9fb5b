import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { markers, replaceBetweenMarkers } from './write-docs.js';

describe('replaceBetweenMarkers', () => {
  it('replaces only the named section and keeps the hand-written text around it', () => {
    const { start, end } = markers('results');
    const other = markers('profile');
    const document = `# Title\n\n${start}\nold\n${end}\n\nhand text\n\n${other.start}\nkept\n${other.end}\n`;
    const updated = replaceBetweenMarkers(document, 'results', 'new table');
    assert.equal(updated, `# Title\n\n${start}\n\nnew table\n\n${end}\n\nhand text\n\n${other.start}\nkept\n${other.end}\n`);
  });

  it('refuses a document without the markers', () => {
    assert.throws(() => replaceBetweenMarkers('# nothing', 'results', 'x'), /bench:results markers/);
  });
});
