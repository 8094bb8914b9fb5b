import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Response } from '../http/response.js';
import { defineRoute, type PlaceholderNames, type RouteParams } from './define-route.js';
import { RouteCollection } from './route-collection.js';

// Compile-time checks: each line fails the type check (npx tsc) if the inference is wrong.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const checks: [
  Equal<PlaceholderNames<'/users/{id}'>, 'id'>,
  Equal<PlaceholderNames<'/users/{id<\\d+>}/posts/{slug?}'>, 'id' | 'slug'>,
  Equal<PlaceholderNames<'/list/{page<\\d{1,3}>?1}.{_format}'>, 'page' | '_format'>,
  Equal<PlaceholderNames<'/files/{!path<.+>}'>, 'path'>,
  Equal<PlaceholderNames<'/static'>, never>,
  Equal<RouteParams<'/t/{id}', '{tenant}.example.test', { lang: 'en' }>, { id: string; tenant: string; lang: string }>,
  // Optional without a default: may be undefined; with a default, inline or in `defaults`, always there.
  Equal<RouteParams<'/opt/{x?}/{page?1}/{n<\\d+>?}/{m<\\d+>?2}'>, { x: string | undefined; page: string; n: string | undefined; m: string }>,
  Equal<RouteParams<'/opt/{x?}', never, { x: 'all' }>, { x: string }>,
] = [true, true, true, true, true, true, true, true];

describe('defineRoute', () => {
  it('gives the controller the parameters its path declares, and is the definition itself at run time', async () => {
    assert.ok(checks.every(Boolean));
    const definition = defineRoute({
      name: 'note',
      path: '/notes/{id<\\d+>}.{_format}',
      defaults: { _format: 'json' },
      controller: (_request, { id, _format }) => Response.text(`${id} as ${_format}`),
    });
    assert.equal(definition.path, '/notes/{id<\\d+>}.{_format}');
    // A name its path does not declare is a type error, not an undefined at run time.
    // @ts-expect-error `idd` is no placeholder of the route
    defineRoute({ name: 'typo', path: '/notes/{id}', controller: (_request, { idd }) => Response.text(String(idd)) });
    // @ts-expect-error `x` may be absent: `/opt` matches the route with no value for it
    defineRoute({ name: 'opt', path: '/opt/{x?}', controller: (_request, { x }) => Response.text(((value: string) => value)(x)) });
    const route = new RouteCollection().add(definition).get('note')!;
    assert.equal(route.defaults._format, 'json');
  });
});
