import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RouteCollection } from './route-collection.js';
import { RouteDefinitionError } from './routing-errors.js';
import { staticFiles } from '../http/static-files.js';
import { traceRoutes } from './trace.js';

const invalid = (problem: RegExp) => (error: unknown) =>
  error instanceof RouteDefinitionError && error.code === 'KEEL_ERR_ROUTE_INVALID' && problem.test(error.message);

describe('RouteCollection', () => {
  it('iterates routes in definition order and finds them by name', () => {
    const routes = new RouteCollection().addAll([
      { name: 'b', path: '/b' },
      { name: 'a', path: '/a' },
    ]);
    assert.deepEqual([...routes].map((r) => r.name), ['b', 'a']);
    assert.equal(routes.get('a')?.path, '/a');
    assert.equal(routes.size, 2);
  });

  it('shares one matcher of the table until a route is added, which the next matcher knows', () => {
    const routes = new RouteCollection().add({ name: 'a', path: '/a' });
    const first = routes.matcher();
    assert.equal(routes.matcher(), first);
    // The routing panel's replay of a request uses it too, instead of indexing the table again.
    const match = first.match.bind(first);
    let replays = 0;
    first.match = (...args) => {
      replays++;
      return match(...args);
    };
    assert.equal(traceRoutes(routes, { method: 'GET', path: '/a', host: 'localhost', scheme: 'http' }).outcome.kind, 'match');
    assert.equal(replays, 1);
    routes.add({ name: 'b', path: '/b' });
    assert.notEqual(routes.matcher(), first);
    assert.equal(routes.matcher().match({ method: 'GET', path: '/b', host: 'localhost', scheme: 'http' }).route.name, 'b');
  });

  it('rejects a second route with the same name', () => {
    const routes = new RouteCollection().add({ name: 'home', path: '/' });
    assert.throws(() => routes.add({ name: 'home', path: '/other' }), invalid(/already defined\.$/));
  });

  it("says why when the name is one of keel's own, or two staticFiles() kept the default", () => {
    const routes = new RouteCollection().add({ name: '_profiler', path: '/_profiler/{token}' }).add(staticFiles({ root: '.', prefix: '/assets' }));
    assert.throws(() => routes.add({ name: '_profiler', path: '/mine' }), invalid(/already defined\. Names starting with "_" are keel's own/));
    assert.throws(() => routes.add(staticFiles({ root: '.', prefix: '/media' })), invalid(/Each staticFiles\(\) route needs a name of its own/));
  });

  it('refuses Express-style `:name` segments with the braces spelling, and keeps colons inside segments literal', () => {
    assert.throws(() => new RouteCollection().add({ name: 'user', path: '/users/:id/posts/:post?' }), invalid(/segment ":id".*"\/users\/\{id\}\/posts\/\{post\?\}"/));
    const routes = new RouteCollection().addAll([
      { name: 'verb', path: '/v1/documents:batchGet' },
      { name: 'time', path: '/at/12:30' },
    ]);
    assert.deepEqual([...routes].map((route) => route.path), ['/v1/documents:batchGet', '/at/12:30']);
  });

  it('refuses a wildcard segment spelt the Express, Fastify or Hono way, and a requirement after a colon or in parentheses, each with the spelling keel reads', () => {
    const cases = [
      ['/files/*', /^Route "bad" is invalid: the path "\/files\/\*" has a segment "\*", which would match only that literal text: a placeholder taking the rest of the path is written "\/files\/\{path<\.\+>\}"\.$/],
      ['/files/*rest', /the path "\/files\/\*rest" has a segment "\*rest", .* written "\/files\/\{rest<\.\+>\}"/],
      ['/items/{id:\\d+}', /^Route "bad" is invalid: "\/items\/\{id:\\d\+\}" has a malformed placeholder "\{id:\\d\+\}": a requirement is written in angle brackets, "\{id<\\d\+>\}"\.$/],
      ['/items/{id(\\d+)}', /malformed placeholder "\{id\(\\d\+\)\}": a requirement is written in angle brackets, "\{id<\\d\+>\}"/],
      ['/blog/{slug:post}', /mapped placeholder "\{slug:post\}", which keel does not read \(the controller receives params\.slug\): write "\{slug\}"/],
    ] as const;
    for (const [path, message] of cases) assert.throws(() => new RouteCollection().add({ name: 'bad', path }), invalid(message), path);
    for (const path of ['/robots*.txt', '/a/b*c', '/*.js/x']) assert.doesNotThrow(() => new RouteCollection().add({ name: 'ok', path }), path);
  });

  it('normalises the path, methods and schemes', () => {
    const route = new RouteCollection().add({ name: 'x', path: ' //items/{id<\\d+>}', methods: ['get', 'Post'], schemes: ['HTTPS' as 'https'] }).get('x');
    assert.equal(route?.path, '/items/{id}');
    assert.deepEqual(route?.requirements, { id: '\\d+' });
    assert.deepEqual(route?.methods, ['GET', 'POST']);
    assert.deepEqual(route?.schemes, ['https']);
  });

  it('lets a host\'s inline requirements and defaults win over the explicit ones, as Symfony reads the host last', () => {
    const route = new RouteCollection().add({ name: 'x', path: '/{page<\\d+>?1}', host: '{sub<[a-z]+>?www}.example.com', requirements: { sub: '\\d+', page: '\\w+' }, defaults: { sub: '1', page: '2' } }).get('x');
    assert.deepEqual([route?.requirements.sub, route?.defaults.sub], ['[a-z]+', 'www']);
    assert.deepEqual([route?.requirements.page, route?.defaults.page], ['\\w+', '2']);
  });

  it('knows a trailing placeholder whatever letters its name holds', () => {
    assert.equal(new RouteCollection().add({ name: 'x', path: '/a/{café}', requirements: { café: '.+' } }).get('x')?.hasTrailingVar, true);
  });

  it('reads one method or scheme given as a string, as Symfony\'s Route reads it', () => {
    const route = new RouteCollection().add({ name: 'x', path: '/', methods: 'get' as never, schemes: 'HTTPS' as never }).get('x');
    assert.deepEqual([route?.methods, route?.schemes], [['GET'], ['https']]);
  });

  it('lets explicit requirements and defaults override inline ones, and strips anchors', () => {
    const route = new RouteCollection()
      .add({ name: 'x', path: '/p/{page<\\w+>?1}', requirements: { page: '^\\d+$' }, defaults: { page: '2' } })
      .get('x');
    assert.deepEqual(route?.requirements, { page: '\\d+' });
    assert.deepEqual(route?.defaults, { page: '2' });
  });

  describe('when a definition is invalid', () => {
    const add = (path: string, requirements?: Record<string, string>) => () => new RouteCollection().add({ name: 'bad', path, requirements });

    it('names the route and the problem', () => {
      assert.throws(add('/a/{1st}'), invalid(/^Route "bad" is invalid: placeholder "1st" cannot start with a digit/));
      // A hole in a table built by code.
      assert.throws(() => new RouteCollection().addAll([null as never]), invalid(/^Route "null" is invalid: a route is an object/));
    });

    it('refuses a placeholder used twice, an unmatched brace and an overlong name', () => {
      assert.throws(add('/{a}/{a}'), invalid(/more than once/));
      assert.throws(add('/a/{b'), invalid(/unmatched brace/));
      assert.throws(add(`/{${'x'.repeat(33)}}`), invalid(/longer than 32/));
    });

    it('refuses requirements that do not compile, are empty, or backtrack catastrophically', () => {
      assert.throws(add('/{a}', { a: '[' }), invalid(/not a valid regular expression/));
      assert.throws(add('/{a}', { a: '^$' }), invalid(/cannot be empty/));
      assert.throws(add('/{a<>}'), invalid(/the requirement of "a" cannot be empty/));
      assert.throws(add('/{a}', { a: '(a+)+' }), invalid(/nested quantifiers/));
      assert.throws(add('/{a}', { a: '(\\w)\\1' }), invalid(/back-references/));
    });

    it('names the PCRE syntax JavaScript lacks in a requirement, and what to write instead', () => {
      const cases = [
        ['(?i)abc', /^Route "bad" is invalid: the requirement of "a" uses inline flags \(`\(\?i\)`\), PCRE syntax JavaScript's regular expressions lack: spell the cases in a character class \(`\[Aa\]`\) or list the variants \(`abc\|ABC`\)\.$/],
        ['(?i:en|fr)', /uses inline flags \(`\(\?i:`\)/],
        ['\\d++', /uses a possessive quantifier \(`\+\+`\), .*: drop its last `\+` \(`\\d\+`\)/],
        ['[a-z]*+x', /uses a possessive quantifier \(`\*\+`\)/],
        ['(?>ab|a)c', /uses an atomic group \(`\(\?>`\), .*: write `\(\?:…\)`/],
        ['\\Qa.b\\E', /uses quoting \(`\\Q…\\E`\), .*: escape each special character \(`a\\\.b`\)/],
        ['[[:alpha:]]+', /uses a POSIX class \(`\[:alpha:\]`\), .*: write a property or a range \(`\\p\{L\}`, `\[a-z\]`, `\\d`\)/],
        ['(?P<id>\\d+)', /uses a Python-style named group \(`\(\?P<`\), .*: write `\(\?<name>…\)`/],
        ['\\d+(?#digits)', /uses a comment \(`\(\?#`\), .*: remove it/],
      ] as const;
      for (const [requirement, message] of cases) assert.throws(add('/{a}', { a: requirement }), invalid(message), requirement);
      // What JavaScript reads, escaped or in a class, is no PCRE-only syntax.
      for (const requirement of ['\\++', '[+*]+', 'a+?', '[(?i)]+', '\\(\\?i\\)']) assert.doesNotThrow(add('/{a}', { a: requirement }), requirement);
    });

    it('refuses placeholders that follow each other with overlapping unbounded requirements, whose split a long path makes the matcher try every way', () => {
      assert.throws(add('/archive/{year}{month}{day}.html'), invalid(/placeholders "year" and "month" follow each other .* Bound one \(`\{year<\\d\{4\}>\}`\), or put a separator/));
      assert.throws(add('/{a}{b<\\d+>}'), invalid(/placeholders "a" and "b"/));
      for (const path of ['/archive/{year<\\d{4}>}{month<\\d{2}>}', '/x/{a<[a-z]+>}{b<\\d+>}', '/x/{a}{b<\\d{2}>}', '/x/{a}.{b}']) {
        assert.doesNotThrow(add(path), path);
      }
    });

    it('names the field of a table built by code that holds what is no string, instead of failing inside', () => {
      assert.throws(() => new RouteCollection().add({ name: 'bad', path: '/', methods: [1] as never }), invalid(/^Route "bad" is invalid: methods must be a string or a list of strings/));
      assert.throws(() => new RouteCollection().add({ name: 'bad', path: '/{x}', requirements: { x: 5 as never } }), invalid(/^Route "bad" is invalid: the routing requirement for "x" must be a string/));
    });

    // A table without its type: the compiler cannot catch these, and each left a route open or empty.
    it('refuses a key no route has, naming the one meant, and a controller that is no function', () => {
      const routes = [
        [{ name: 'bad', path: '/m', method: ['GET'] }, /^Route "bad" is invalid: unknown key "method" \(did you mean "methods"\?\); a route has name, path, controller, methods/],
        [{ name: 'bad', path: '/r/{id}', requirement: { id: '\\d+' } }, /unknown key "requirement" \(did you mean "requirements"\?\)/],
        [{ name: 'bad', path: '/c', controler: () => undefined }, /unknown key "controler" \(did you mean "controller"\?\)/],
        [{ name: 'bad', path: '/c', handler: () => undefined }, /unknown key "handler"; a route has/],
        [{ name: 'bad', path: '/c', controller: 'App\\Controller::index' }, /the controller must be a function \(got the string "App\\\\Controller::index": keel has no controller names/],
      ] as const;
      for (const [definition, message] of routes) assert.throws(() => new RouteCollection().add(definition as never), invalid(message), JSON.stringify(definition));
    });

    it('refuses a method that is no HTTP token and a scheme a request never has, which the route could never match', () => {
      const routes = [
        [{ name: 'bad', path: '/m', methods: ['GET|POST'] }, /^Route "bad" is invalid: the method "GET\|POST" is not an HTTP method name; list each method apart: \["GET", "POST"\]\.$/],
        [{ name: 'bad', path: '/m', methods: ['GET, POST'] }, /the method "GET, POST" is not an HTTP method name; list each method apart: \["GET", "POST"\]/],
        [{ name: 'bad', path: '/m', methods: [''] }, /the method "" is not an HTTP method name\.$/],
        [{ name: 'bad', path: '/m', methods: ['ANY'] }, /^Route "bad" is invalid: the method "ANY" names no method a request has: leave methods out for a route that takes any\.$/],
        [{ name: 'bad', path: '/m', methods: ['GET', '*'] }, /the method "\*" names no method a request has: leave methods out/],
        [{ name: 'bad', path: '/s', schemes: ['https:'] }, /^Route "bad" is invalid: the scheme "https:" is neither http nor https, the schemes a request comes in on\.$/],
        [{ name: 'bad', path: '/s', schemes: ['ftp'] }, /the scheme "ftp" is neither http nor https/],
      ] as const;
      for (const [definition, message] of routes) assert.throws(() => new RouteCollection().add(definition as never), invalid(message), JSON.stringify(definition));
      assert.deepEqual(new RouteCollection().add({ name: 'ok', path: '/', methods: ['M-SEARCH', 'purge'] }).get('ok')?.methods, ['M-SEARCH', 'PURGE']);
    });

    it('refuses a host no request host can match: one with a scheme, a path or a port, each named with the host to write', () => {
      const routes = [
        [{ name: 'bad', path: '/', host: 'https://api.example.com' }, /^Route "bad" is invalid: the host "https:\/\/api\.example\.com" holds a scheme, a path or a port, which a request's host never has: write "api\.example\.com" \(with schemes: \['https'\] for the scheme\)\.$/],
        [{ name: 'bad', path: '/', host: 'api.example.com/v1' }, /the host "api\.example\.com\/v1" holds .*: write "api\.example\.com"/],
        [{ name: 'bad', path: '/', host: '{tenant}.example.com:8080' }, /the host "\{tenant\}\.example\.com:8080" holds .*: write "\{tenant\}\.example\.com"/],
        [{ name: 'bad', path: '/', host: '[::1]:8080' }, /the host "\[::1\]:8080" holds .*: write "\[::1\]"/],
      ] as const;
      for (const [definition, message] of routes) assert.throws(() => new RouteCollection().add(definition as never), invalid(message), JSON.stringify(definition));
      for (const host of ['[::1]', '{sub<[a-z]+>}.example.com', 'localhost', '{id<\\d{2,3}>}.example.com']) assert.doesNotThrow(() => new RouteCollection().add({ name: 'ok', path: '/', host }), host);
    });

    it('refuses a route without a name', () => {
      assert.throws(() => new RouteCollection().add({ name: '', path: '/' }), invalid(/non-empty name/));
    });
  });
});
