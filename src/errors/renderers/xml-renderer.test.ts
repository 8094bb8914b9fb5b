import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpException } from '../../http/http-exception.js';
import { Request } from '../../http/request.js';
import { createFlatError } from '../flat-error.js';
import { describeRendererContract } from './renderer.contract.js';
import { XmlRenderer } from './xml-renderer.js';

describeRendererContract('XmlRenderer', () => new XmlRenderer());

describe('XmlRenderer', () => {
  it('replaces characters XML cannot carry instead of producing an invalid document', () => {
    const { body } = new XmlRenderer().render(createFlatError(new Error('a\u0000b\u001Fc')), { request: new Request({ method: 'GET', target: '/' }), debug: true });
    assert.ok(body.includes('<detail>a&#xFFFD;b&#xFFFD;c</detail>'));
  });

  it('writes an empty list as one empty element, like the reference writes <args/>', () => {
    const { body } = new XmlRenderer().render(createFlatError(new Error('x'), { debug: true }), { request: new Request({ method: 'GET', target: '/' }), debug: true });
    assert.match(body, /<line>\d+<\/line><args\/><\/trace>/);
  });

  it('writes texts as the reference XmlEncoder does: CDATA around <, > or &, quotes as they are, non-ASCII as references', () => {
    const render = (message: string) => new XmlRenderer().render(createFlatError(new Error(message)), { request: new Request({ method: 'GET', target: '/' }), debug: true }).body;
    // Each expected body checked against Symfony 5.4's XmlEncoder (PHP 8.2, libxml2).
    assert.match(render('No route found for "GET https://x.test/a"'), /<detail>No route found for "GET https:\/\/x\.test\/a"<\/detail>/);
    assert.match(render('Boom <b>"quoted" & \'single\'</b>'), /<detail><!\[CDATA\[Boom <b>"quoted" & 'single'<\/b>\]\]><\/detail>/);
    assert.ok(render('x]]>y<').includes('<detail><![CDATA[x]]]]><![CDATA[>y<]]></detail>'));
    assert.ok(render('café\r😀').includes('<detail>caf&#xE9;&#xD;&#x1F600;</detail>'));
    assert.ok(render('é<').includes('<detail><![CDATA[é<]]></detail>'));
  });

  it('writes a key that is a number or no element name as an item with the key in an attribute, as XmlEncoder does', () => {
    const error = new HttpException(422, { message: 'invalid', extensions: { violations: { 'items[0].name': 'must not be blank', 'a"<&': 'x' }, coords: [[1, 2]] } });
    const { body } = new XmlRenderer().render(createFlatError(error), { request: new Request({ method: 'GET', target: '/' }), debug: false });
    assert.ok(body.includes('<violations><item key="items[0].name">must not be blank</item><item key="a&quot;&lt;&amp;">x</item></violations>'), body);
    assert.ok(body.includes('<coords><item key="0">1</item><item key="1">2</item></coords>'), body);
  });
});
