import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RouteCollection } from './route-collection.js';
import { UrlGenerationError } from './routing-errors.js';
import { UrlGenerator } from './url-generator.js';

const generator = new UrlGenerator(
  new RouteCollection().addAll([
    { name: 'home', path: '/' },
    { name: 'item_edit', path: '/items/{id<\\d+>}' },
    { name: 'list', path: '/list/{page}', defaults: { page: '1' } },
    { name: 'file', path: '/files/{name}.{ext?txt}' },
    { name: 'tree', path: '/tree/{path}', requirements: { path: '.+' } },
    { name: 'secure', path: '/account', schemes: ['https'] },
    { name: 'tenant', path: '/dash', host: '{tenant}.example.com' },
  ]),
);

describe('UrlGenerator', () => {
  it('fills placeholders and appends extra parameters as the query string', () => {
    assert.equal(generator.generate('home'), '/');
    assert.equal(generator.generate('item_edit', { id: 12, tab: 'a b', 'x/y': '?' }), '/items/12?tab=a%20b&x/y=?');
  });

  it('checks host placeholders even when writing a path alone', () => {
    assert.equal(generator.generate('tenant', { tenant: 'acme' }), '/dash');
    assert.throws(() => generator.generate('tenant', { tenant: 'a.b' }), UrlGenerationError);
  });

  it('reads a host\'s inline requirements and defaults, keeps its placeholder names\' case and checks its values whatever their case', () => {
    const hosts = new UrlGenerator(
      new RouteCollection().addAll([
        { name: 'region', path: '/r', host: '{Region<[a-z]+>?eu}.Example.COM' },
        { name: 'upper', path: '/u', host: '{sub}.example.com', requirements: { sub: '[A-Z]+' } },
      ]),
    );
    const request = { schemeAndHttpHost: 'https://example.com' };
    assert.equal(hosts.generate('region', { Region: 'us' }, { absolute: request }), 'https://us.example.com/r');
    assert.equal(hosts.generate('region', {}, { absolute: request }), 'https://eu.example.com/r');
    assert.throws(() => hosts.generate('region', { Region: 'u1' }), UrlGenerationError);
    assert.equal(hosts.generate('upper', { sub: 'ab' }, { absolute: request }), 'https://ab.example.com/u');
  });

  it('checks a value without the requirement\'s lookarounds, as the reference does', () => {
    const users = new UrlGenerator(new RouteCollection().addAll([{ name: 'user', path: '/u/{name}', requirements: { name: '(?!admin$)(?<=/?)[a-z]+(?=\\b)' } }]));
    assert.equal(users.generate('user', { name: 'admin' }), '/u/admin');
    assert.throws(() => users.generate('user', { name: 'Admin1' }), UrlGenerationError);
  });

  it('leaves out a query parameter equal to its default as PHP\'s == compares them', () => {
    const paged = new UrlGenerator(new RouteCollection().addAll([{ name: 'news', path: '/n/{a}', defaults: { y: '1' } }]));
    for (const y of ['1', '01', '1.0', ' 1', 1]) assert.equal(paged.generate('news', { a: 'a', y }), '/n/a', String(y));
    assert.equal(paged.generate('news', { a: 'a', y: '1a' }), '/n/a?y=1a');
    assert.equal(paged.generate('news', { a: 'a', toString: 'x' }), '/n/a?toString=x');
    // A boolean equals a default read as a boolean: '' and '0' are false, any other text true.
    const flagged = new UrlGenerator(new RouteCollection().addAll([{ name: 'a', path: '/a', defaults: { lang: 'en', flag: '', zero: '0' } }]));
    assert.equal(flagged.generate('a', { lang: true, flag: false, zero: false }), '/a');
    assert.equal(flagged.generate('a', { lang: false, flag: true }), '/a?lang=0&flag=1');
  });

  it('fills placeholders named beyond ASCII, and refuses a name over 32 bytes, as Symfony counts them', () => {
    const named = new UrlGenerator(new RouteCollection().addAll([{ name: 'dish', path: '/d/{café}' }]));
    assert.equal(named.generate('dish', { café: 'crème' }), '/d/cr%C3%A8me');
    // 17 × é is 17 characters and 34 bytes.
    assert.throws(() => new RouteCollection().addAll([{ name: 'long', path: `/{${'é'.repeat(17)}}` }]), /longer than 32 bytes/);
  });

  it('writes booleans as PHP does (1 and 0 in the query, 1 and nothing in a placeholder), and keeps a %2F given in a value', () => {
    const routes = new UrlGenerator(new RouteCollection().addAll([{ name: 'q', path: '/q' }, { name: 'file', path: '/files/{name<.*>}' }]));
    assert.equal(routes.generate('q', { b: true, f: false }), '/q?b=1&f=0');
    assert.equal(routes.generate('file', { name: true }), '/files/1');
    assert.equal(routes.generate('file', { name: 'a%2Fb' }), '/files/a%2Fb');
    assert.equal(routes.generate('file', { name: 'a/b%25' }), '/files/a/b%2525');
  });

  it('reads a null or undefined value (an optional property left unset) as PHP\'s null: the default in a placeholder, nothing in the query or fragment', () => {
    const filters: { page?: string; q?: string; _fragment?: string } = { page: undefined, q: undefined, _fragment: undefined };
    assert.equal(generator.generate('list', filters), '/list');
    assert.equal(generator.generate('item_edit', { id: 3, q: null, tab: 'a' }), '/items/3?tab=a');
    const anchored = new UrlGenerator(new RouteCollection().addAll([{ name: 'a', path: '/a', defaults: { _fragment: 'top' } }]));
    assert.equal(anchored.generate('a', { _fragment: undefined }), '/a#top');
    // Given, it is no value a placeholder without a default can take, as the reference refuses it.
    assert.throws(() => generator.generate('item_edit', { id: undefined }), { message: 'Parameter "id" for route "item_edit" must match "\\d+" ("" given) to generate a corresponding URL.' });
  });

  it('checks path requirements with their case, as the path is matched (Symfony ignores it and writes URLs its matcher refuses)', () => {
    const codes = new UrlGenerator(new RouteCollection().addAll([{ name: 'code', path: '/code/{c<[a-z]+>}' }]));
    assert.equal(codes.generate('code', { c: 'abc' }), '/code/abc');
    assert.throws(() => codes.generate('code', { c: 'ABC' }), UrlGenerationError);
  });

  it('leaves out trailing placeholders equal to their default', () => {
    assert.equal(generator.generate('list'), '/list');
    assert.equal(generator.generate('list', { page: 1 }), '/list');
    assert.equal(generator.generate('list', { page: 3 }), '/list/3');
    assert.equal(generator.generate('file', { name: 'notes' }), '/files/notes');
    assert.equal(generator.generate('file', { name: 'notes', ext: 'md' }), '/files/notes.md');
  });

  it('percent-encodes values but keeps slashes and sub-delimiters', () => {
    assert.equal(generator.generate('tree', { path: 'a b/c@d;e,f=g+h!i*j|k\'l' }), "/tree/a%20b/c@d;e,f=g+h!i*j|k%27l");
    assert.equal(generator.generate('tree', { path: 'café' }), '/tree/caf%C3%A9');
  });

  it('escapes dot segments a browser would resolve away', () => {
    assert.equal(generator.generate('tree', { path: '../x/./y/..' }), '/tree/%2E%2E/x/%2E/y/%2E%2E');
    // Several in a row, each of them.
    assert.equal(generator.generate('tree', { path: '../../etc' }), '/tree/%2E%2E/%2E%2E/etc');
    assert.equal(generator.generate('tree', { path: 'a/././b/..' }), '/tree/a/%2E/%2E/b/%2E%2E');
  });

  it('adds a fragment', () => {
    assert.equal(generator.generate('home', { _fragment: 'top' }), '/#top');
  });

  it('builds absolute URLs on the request host, switching to a required scheme', () => {
    const request = { schemeAndHttpHost: 'http://app.example.test:8080', origin: { prefix: '/shop' } };
    assert.equal(generator.generate('item_edit', { id: 1 }, { absolute: request }), 'http://app.example.test:8080/shop/items/1');
    assert.equal(generator.generate('secure', {}, { absolute: request }), 'https://app.example.test/shop/account');
    assert.equal(generator.generate('tenant', { tenant: 'acme' }, { absolute: request }), 'http://acme.example.com:8080/shop/dash');
  });

  it('writes a path behind the base path a trusted proxy strips (X-Forwarded-Prefix), as Symfony writes it from its request context', () => {
    const request = { origin: { prefix: '/shop' } };
    assert.equal(generator.generate('item_edit', { id: 1, tab: 'x' }, { request }), '/shop/items/1?tab=x');
    assert.equal(generator.generate('home', {}, { request: { origin: { prefix: '' } } }), '/');
  });

  it('fills placeholders named as an object\'s own properties, and says when their value is missing', () => {
    const named = new UrlGenerator(new RouteCollection().addAll([{ name: 'team', path: '/teams/{constructor}/{valueOf}' }]));
    assert.equal(named.generate('team', { constructor: 'williams', valueOf: 'fw46' }), '/teams/williams/fw46');
    assert.throws(() => named.generate('team', { valueOf: 'fw46' }), { message: 'Some mandatory parameters are missing ("constructor") to generate a URL for route "team".' });
  });

  describe('when parameters are wrong', () => {
    it('names the missing ones', () => {
      assert.throws(() => generator.generate('item_edit'), {
        name: 'UrlGenerationError',
        message: 'Some mandatory parameters are missing ("id") to generate a URL for route "item_edit".',
      });
    });

    it('refuses a value its requirement does not accept', () => {
      assert.throws(() => generator.generate('item_edit', { id: 'abc' }), {
        message: 'Parameter "id" for route "item_edit" must match "\\d+" ("abc" given) to generate a corresponding URL.',
      });
    });

    it('quotes a requirement as the reference writes it: the default one possessive and preg_quote()d, a group as given', () => {
      const routes = new UrlGenerator(
        new RouteCollection().addAll([
          { name: 'file', path: '/f/{name}.{ext}' },
          { name: 'pair', path: '/p/{a}{b<\\d{2}>}' },
          { name: 'last', path: '/l/{a}' },
          { name: 'host', path: '/h', host: '{sub}.example.com' },
          { name: 'group', path: '/g/{x}', requirements: { x: '(a|b)' } },
        ]),
      );
      const quoted = (name: string, params: Record<string, string>) => {
        try {
          routes.generate(name, params);
        } catch (error) {
          return /must match "(.*)" \(/.exec((error as Error).message)?.[1];
        }
        return undefined;
      };
      // php: RouteCompiler gives [^/\.]++, [^/]+ before another placeholder, [^\.]++ in a host.
      assert.equal(quoted('file', { name: 'a/b', ext: 'txt' }), '[^/\\.]++');
      assert.equal(quoted('pair', { a: 'x/y', b: '12' }), '[^/]+');
      assert.equal(quoted('last', { a: 'y/z' }), '[^/]++');
      assert.equal(quoted('host', { sub: 'a.b' }), '[^\\.]++');
      assert.equal(quoted('group', { x: 'c' }), '(a|b)');
    });

    it('refuses an unknown route', () => {
      assert.throws(() => generator.generate('nope'), UrlGenerationError);
    });
  });
});
