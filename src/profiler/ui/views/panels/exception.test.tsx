/** @jsxRuntime automatic @jsxImportSource preact */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderToString } from 'preact-render-to-string';
import { Request } from '../../../../http/request.js';
import { Response } from '../../../../http/response.js';
import { ExceptionCollector, type ExceptionData } from '../../../collectors/exception-collector.js';
import { createTestProfile } from '../../../profile-store.contract.js';
import { ExceptionPanel } from './exception.js';

function panel(error: unknown): string {
  // Through JSON, as a record read back from the store gives its data.
  const data = JSON.parse(JSON.stringify(new ExceptionCollector().collect(new Request({ method: 'GET', target: '/' }), new Response(), error))) as ExceptionData;
  return renderToString(<ExceptionPanel profile={createTestProfile('000001')} data={data} base="" query={new URLSearchParams()} routes={undefined} />);
}

describe('the exception panel', () => {
  it('says how many earlier exceptions of a long chain its record left out, and nothing for a whole one', () => {
    let error: Error = new Error('e0');
    for (let i = 1; i < 20; i++) error = new Error(`e${i}`, { cause: error });
    assert.match(panel(error), /<p class="trace-omitted">4 earlier exceptions of the chain are not shown: the first 16 are\.<\/p>/);
    assert.doesNotMatch(panel(new Error('alone', { cause: new Error('cause') })), /<p class="trace-omitted">/);
  });
});
