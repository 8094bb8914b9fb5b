import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryProfileStore } from '../memory-profile-store.js';
import { bodyOf, createProfiledApp, failedRequest } from '../profiled-app.fixture.js';

describe('profiler performance panel', () => {
  it('draws the listener timeline with total time and the peak memory', async () => {
    const { page } = await failedRequest();
    const html = await page('panel=time');
    assert.match(html, /<span class="label">Total time<\/span>/);
    assert.match(html, /<span class="value">\d+\.\d MiB<\/span><span class="label">Peak memory \(process\)<\/span>/);
    assert.match(html, /<td>exception<\/td><td>ErrorListener\.onKernelException<\/td>/);
    assert.match(html, /<span class="timeline-bar timeline-exception" style="margin-left:[\d.]+%;width:[\d.]+%;"/);
  });

  it('draws a timeline of more events than a call takes arguments (a request making many sub-requests)', async () => {
    const store = new MemoryProfileStore();
    const { get } = createProfiledApp({ store });
    const token = (await get('/')).headers.get('x-debug-token')!;
    const time = store.get(token)!.collectors.time as { events: { event: string; listener: string; start: number; end: number }[] };
    time.events = Array.from({ length: 200_000 }, (_, i) => ({ event: 'request', listener: 'L.onRequest', start: i / 1000, end: i / 1000 + 0.0005 }));
    assert.match(bodyOf(await get(`/_profiler/${token}?panel=time`)), /<span class="label">Total time<\/span>/);
  });

  it("puts the controller's own call on the timeline, between the listeners around it, and its time beside the total", async () => {
    const app = createProfiledApp();
    const token = (await app.get('/')).headers.get('x-debug-token')!;
    const html = bodyOf(await app.get(`/_profiler/${token}?panel=time`));
    assert.match(html, /<span class="value">\d+\.\d ms<\/span><span class="label">Controller<\/span>/);
    const rows = [...html.matchAll(/<tr[^>]*><td>([^<]+)<\/td><td>([^<]+)<\/td>/g)].map(([, event, listener]) => `${event}:${listener}`);
    const call = rows.indexOf('controller call:home');
    assert.ok(call > 0, rows.join(', '));
    assert.ok(rows.slice(0, call).every((row) => row.startsWith('request:')), rows.join(', '));
    assert.ok(rows.slice(call + 1).every((row) => !row.startsWith('request:')), rows.join(', '));
  });

  it("puts the error sub-request on the failed request's timeline, after the error listener that made it, linked to its record", async () => {
    const { page, sub } = await failedRequest();
    const html = await page('panel=time');
    assert.match(html, /<span class="value">1<\/span><span class="label">Sub-request<\/span>/);
    assert.match(html, /<span class="value">\d+\.\d ms<\/span><span class="label">Sub-request time<\/span>/);
    const rows = [...html.matchAll(/<tr[^>]*><td>([^<]+)<\/td><td>(?:<a href="([^"]+)">)?([^<]+)/g)].map(([, event, href, listener]) => `${event}:${href ?? ''}${listener}`);
    const at = rows.indexOf(`sub-request:/_profiler/${sub}?panel=time&amp;type=request${sub}`);
    assert.ok(at > 0, rows.join(', '));
    assert.equal(rows[at - 1], 'exception:ErrorListener.onKernelException');
    assert.match(html, /<span class="timeline-bar timeline-sub-request" style="margin-left:[\d.]+%;width:[\d.]+%;"/);
  });
});
