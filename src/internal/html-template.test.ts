import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { asciiHtml, escapeHtmlText, html, trustedHtml } from './html-template.js';

const render = (node: ReturnType<typeof html>) => renderToString(node);

describe('html``', () => {
  it('escapes interpolated text and attribute values as preact escapes JSX', () => {
    const value = `<script>alert("x") & 'y'</script>`;
    assert.equal(render(html`<p title="${value}">${value}</p>`), renderToString(h('p', { title: value }, value)));
    assert.equal(render(html`<p>${value}</p>`), '<p>&lt;script>alert(&quot;x&quot;) &amp; \'y\'&lt;/script></p>');
  });

  it('renders templates, JSX elements and lists in place, escaping the strings of a list once', () => {
    const inner = html`<b>${'<i>'}</b>`;
    assert.equal(render(html`<div>${inner}${h('em', null, '&')}${['<a>', html`<u>${'"'}</u>`, 3]}</div>`), '<div><b>&lt;i></b><em>&amp;</em>&lt;a><u>&quot;</u>3</div>');
  });

  it('renders nothing for null, undefined and booleans, numbers as text, other objects as their escaped text', () => {
    assert.equal(render(html`<p>${null}${undefined}${false}${true}${0}${{ toString: () => '<o>' }}</p>`), '<p>0&lt;o></p>');
    // Not taken for an element: an object without a prototype (it has no toString either).
    assert.equal(render(html`<p>${Object.assign(Object.create(null) as object, { type: 'script' })}</p>`), '<p>[object Object]</p>');
  });

  it('inserts trusted markup as it is', () => {
    assert.equal(render(html`<div>${trustedHtml('<style>a > b { }</style>')}</div>`), '<div><style>a > b { }</style></div>');
  });

  it('never lets interpolated text open a tag or leave a quoted attribute', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const out = render(html`<a href="${text}">${text}</a>`);
        const inner = out.slice('<a href="'.length, -'</a>'.length);
        // The attribute ends at the first quote, which is the template's own; no `<` of the text survives.
        assert.equal(inner.indexOf('"'), inner.lastIndexOf('"'));
        assert.doesNotMatch(inner, /</);
      }),
    );
  });
});

describe('escapeHtmlText', () => {
  it('writes one U+FFFD per ill-formed sequence of a header\'s bytes, as htmlspecialchars() with ENT_SUBSTITUTE does', () => {
    // A Referer's bytes E9 FF, as headerText keeps them: one sequence for PHP, where encoding each byte wrote two.
    assert.equal(escapeHtmlText('from "\udce9\udcff"'), 'from &quot;\ufffd&quot;');
    assert.equal(render(html`<p>${'\udcf0\udc9f\udc98x'}</p>`), '<p>\ufffdx</p>');
  });
});

describe('asciiHtml', () => {
  // What a browser makes of the text: the references escapeHtmlText and asciiHtml write, decoded.
  const decode = (markup: string) =>
    markup.replace(/&(#\d+|lt|gt|amp|quot);/g, (_, name: string) => (name.startsWith('#') ? String.fromCodePoint(Number(name.slice(1))) : { lt: '<', gt: '>', amp: '&', quot: '"' }[name]!));

  it('writes characters outside ASCII as references, a surrogate pair as one, and leaves ASCII markup as it is', () => {
    assert.equal(asciiHtml('<code title="café">§ → 😀</code>'), '<code title="caf&#233;">&#167; &#8594; &#128512;</code>');
    const ascii = '<p class="x">plain &amp; simple</p>';
    assert.equal(asciiHtml(ascii), ascii);
  });

  it('keeps any text as a browser reads it, in ASCII only', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const markup = asciiHtml(escapeHtmlText(text));
        assert.doesNotMatch(markup, /[\u0080-\u{10ffff}]/u);
        assert.equal(decode(markup), text);
      }),
    );
    // A lone surrogate is no character: its reference reads as U+FFFD, which UTF-8 would have written for it.
    assert.equal(asciiHtml('a\ud800b'), 'a&#55296;b');
  });
});

describe('html`` layout', () => {
  it('leaves out line breaks and the indentation around them, and keeps spaces within a line', () => {
    const out = render(html`
      <ul class="list">
        <li>one ${'&'} two</li>
        <li>${3}</li>
      </ul>
    `);
    assert.equal(out, '<ul class="list"><li>one &amp; two</li><li>3</li></ul>');
  });
});
