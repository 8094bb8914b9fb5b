/** @jsxRuntime automatic @jsxImportSource preact */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderToString } from 'preact-render-to-string';
import { Request } from '../../../../http/request.js';
import { RouteCollection } from '../../../../routing/route-collection.js';
import type { RoutingRecord } from '../../../../routing/router-listener.js';
import { RouterCollector, type RouterData } from '../../../collectors/router-collector.js';
import type { Profile } from '../../../profile.js';
import { RouterPanel } from './router.js';

const routes = new RouteCollection().addAll([{ name: 'form', path: '/form', methods: ['POST'] }]);

function panelFor(routing: RoutingRecord | undefined): string {
  const request = new Request({ method: 'POST', target: '/form', headers: { host: 'localhost' } });
  if (routing !== undefined) request.attributes.routing = routing;
  const data: RouterData = new RouterCollector().collect(request);
  const profile: Profile = { token: 'abc123', parent: undefined, children: [], time: 0, method: 'POST', url: 'http://localhost/form', ip: '127.0.0.1', statusCode: 400, type: 'request', collectors: {} };
  return renderToString(<RouterPanel profile={profile} data={data} base="" query={new URLSearchParams()} routes={routes} />);
}

describe('RouterPanel', () => {
  it('replays the match of a request the router saw', () => {
    const html = panelFor({ context: { method: 'GET', path: '/form', host: 'localhost', scheme: 'http' } });
    assert.match(html, /The path matches, but not the method: allowed POST\./);
    assert.match(html, /Route Matching Logs/);
  });

  it('says the router did not run for a request answered before routing, rather than replaying a match it never made', () => {
    // A 400 for a refused host or method override, or an error sub-request that came with its controller.
    const html = panelFor(undefined);
    assert.match(html, /The router did not run for this request/);
    assert.doesNotMatch(html, /Matched route &quot;form&quot;|Route Matching Logs|No route matched/);
  });
});
