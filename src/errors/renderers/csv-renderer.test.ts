import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeCsv } from './csv-renderer.js';

describe('encodeCsv', () => {
  it("writes what Symfony's CsvEncoder writes: flattened keys, empty arrays left out, fputcsv's enclosures", () => {
    // PHP: (new CsvEncoder())->encode([...], 'csv') with Symfony's Serializer component.
    const record = { type: 'https://x/y', detail: 'No route "x", it\'s:\nbad é', status: 404, trace: [{ namespace: '', file: '/a b/c.ts', line: 3, args: [] }, { function: 'g' }] };
    assert.equal(
      encodeCsv(record),
      'type,detail,status,trace.0.namespace,trace.0.file,trace.0.line,trace.1.function\nhttps://x/y,"No route ""x"", it\'s:\nbad é",404,,"/a b/c.ts",3,g\n',
    );
  });
});
