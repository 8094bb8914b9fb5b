import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Request } from '../http/request.js';
import { Response } from '../http/response.js';
import { RouteCollection } from '../routing/route-collection.js';
import { reportMatch } from './match-report.js';

const routes = new RouteCollection().addAll([
  { name: 'kept_for_urls', path: '/legacy/{page}' },
  { name: 'page', path: '/pages/{page}', controller: () => Response.text('page') },
]);

const report = (target: string) => reportMatch(routes.matcher(), new Request({ method: 'GET', target, headers: { host: 'localhost' } }));

describe('reportMatch', () => {
  it('reports a match with the parameters the controller would get', () => {
    assert.deepEqual(report('/pages/help').verdict, { kind: 'match', route: 'page', params: { page: 'help' } });
  });

  it('reports the 404 keel answers when the matching route has no controller, not a match', () => {
    assert.deepEqual(report('/legacy/7').verdict, {
      kind: 'noController',
      status: 404,
      route: 'kept_for_urls',
      params: { page: '7' },
      message: 'Unable to find the controller for path "/legacy/7". The route is wrongly configured.',
    });
  });
});
