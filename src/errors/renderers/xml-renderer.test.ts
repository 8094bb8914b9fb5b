import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Request } from '../../http/request.js';
import { createFlatError } from '../flat-error.js';
import { describeRendererContract } from './renderer.contract.js';
import { XmlRenderer } from './xml-renderer.js';

describeRendererContract('XmlRenderer', () => new XmlRenderer());

describe('XmlRenderer', () => {
  it('replaces characters XML cannot carry instead of producing an invalid document', () => {
    const { body } = new XmlRenderer().render(createFlatError(new Error('a\u0000b\u001Fc')), { request: new Request({ method: 'GET', target: '/' }), debug: true });
    assert.ok(body.includes('<detail>a\uFFFDb\uFFFDc</detail>'));
  });

  it('writes an empty list as one empty element, like the reference writes <args/>', () => {
    const { body } = new XmlRenderer().render(createFlatError(new Error('x'), { debug: true }), { request: new Request({ method: 'GET', target: '/' }), debug: true });
    assert.match(body, /<line>\d+<\/line><args><\/args><\/trace>/);
  });
});
