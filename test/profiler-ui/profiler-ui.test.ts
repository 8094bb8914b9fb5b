import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { RouteDefinition } from '../../src/routing/route.js';
import { launchBrowser, type Browser } from '../helpers/browser.js';
import { SEED_HEADERS } from '../helpers/seed-request.js';
import { startDemo, type RunningDemo } from '../helpers/start-demo.js';

// Chromium sets Host and the transport headers itself; the proxy's headers are what make the request the seed's.
const FORWARDED = Object.fromEntries(SEED_HEADERS.filter(([name]) => name.startsWith('x-')));

// Code of the application itself, in the project's src/: the frames of its failure and its listener are
// project files, which the debug page, the exception panel and the events panel link to the profiler's
// source view. Line 2 throws; the listener is defined on line 5.
const CHECKOUT_SOURCE = [
  'export function chargeCard(): never {',
  "  throw new Error('Card declined on purpose');",
  '}',
  '',
  'export function auditCheckout(): void {',
  '  // an application listener: the events panel says where it is defined',
  '}',
  '',
].join('\n');

describe('the profiler in a real browser', () => {
  let demo: RunningDemo;
  let browser: Browser;
  let origin: string;
  // Tokens of the seed 404: the failed request and its error sub-request.
  let main: string;
  let sub: string;

  before(async () => {
    // The module is written into the project once the demo has made it, so the route calls it when asked.
    const checkout = {} as { chargeCard(): never; auditCheckout(): void };
    const route: RouteDefinition = { name: 'checkout', path: '/checkout', methods: ['GET'], controller: () => checkout.chargeCard() };
    demo = await startDemo({}, [route]);
    const file = join(demo.projectDir, 'src', 'checkout.ts');
    mkdirSync(join(demo.projectDir, 'src'));
    writeFileSync(file, CHECKOUT_SOURCE);
    Object.assign(checkout, await import(pathToFileURL(file).href));
    demo.app.kernel.dispatcher.on('response', checkout.auditCheckout, 0, 'auditCheckout');
    origin = `http://127.0.0.1:${demo.port}`;
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await demo?.close();
  });

  const text = () => browser.page.locator('body').innerText();
  const openPanel = async (label: string) => {
    await browser.page.locator('#menu a', { hasText: label }).first().click();
    await browser.page.waitForLoadState('load');
  };

  it('loads the seed 404 through the proxy headers and follows X-Debug-Token-Link to the exception panel', async () => {
    const { page } = browser;
    await page.setExtraHTTPHeaders(FORWARDED);
    browser.expectErrorDocument(`${origin}/robots.txt`);
    const response = await page.goto(`${origin}/robots.txt`);
    await page.setExtraHTTPHeaders({});
    assert.equal(response?.status(), 404);
    assert.match(await text(), /No route found for "GET https:\/\/app\.example\.test\/robots\.txt"/);
    const headers = response!.headers();
    main = headers['x-debug-token']!;
    sub = headers['x-previous-debug-token']!;
    const link = new URL(headers['x-debug-token-link']!);
    assert.equal(link.origin, 'https://app.example.test');
    assert.equal(link.pathname, `/_profiler/${main}`);

    await page.goto(`${origin}${link.pathname}`);
    assert.equal(await page.locator('#panel').getAttribute('data-panel'), 'exception');
    const shown = await text();
    assert.match(shown, /Error 404 GET https:\/\/app\.example\.test\/robots\.txt/);
    assert.match(shown, /NotFoundHttpException/);
    assert.match(shown, /No route found for "GET https:\/\/app\.example\.test\/robots\.txt"/);
    assert.ok(await page.locator('.trace-code li.selected').first().isVisible(), 'an application frame is opened on its source line');
    await browser.screenshot('exception');
  });

  it('switches to the request panel: trusted-proxy resolution, session, the forward to the error sub-request', async () => {
    await openPanel('Request / Response');
    const shown = await text();
    assert.match(shown, new RegExp(`Forwarded to ErrorController \\(${sub}\\)`));
    assert.match(shown, /Session not used\./);
    assert.match(shown, /Stateless check enabled/);
    assert.match(shown, /client_ip\s+203\.0\.113\.7/);
    assert.match(shown, /scheme\s+https \(from x-forwarded-proto\)/i);
    assert.match(shown, new RegExp(`Sub Requests 1\\s+${sub}`));
    await browser.screenshot('request');
  });

  it('switches to the logs panel and filters it by level', async () => {
    await openPanel('Logs');
    assert.match(await text(), /Uncaught PHP Exception Symfony\\Component\\HttpKernel\\Exception\\NotFoundHttpException|NotFoundHttpException/);
    await browser.page.locator('a.filter', { hasText: 'error+' }).click();
    await browser.page.waitForLoadState('load');
    const rows = await browser.page.locator('table.logs tbody tr').allInnerTexts();
    assert.ok(rows.length >= 1 && rows.every((row) => /ERROR|CRITICAL/.test(row)), rows.join('\n'));
    // The time, level and channel each read on one line (a level cell broken as ERRO / R reads as nothing).
    const lines = await browser.page.locator('table.logs tbody tr').first().evaluate((row) =>
      [...row.querySelectorAll(':scope > td:not(:last-child)')].map((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
      }),
    );
    assert.deepEqual(lines, [1, 1, 1]);
    const toggle = browser.page.locator('table.logs tbody tr details.log-context > summary').first();
    const context = browser.page.locator('table.logs tbody tr details.log-context > pre').first();
    assert.equal(await context.isVisible(), false, 'the context is folded until asked for');
    assert.equal(await toggle.innerText(), 'Show context');
    await toggle.click();
    assert.ok(await context.isVisible(), 'the toggle shows the context');
    assert.match(await context.innerText(), /"exception"/);
    assert.equal(await toggle.innerText(), 'Hide context');
    await browser.screenshot('logs');
  });

  it('switches to the routing panel, which explains why no route matched', async () => {
    await openPanel('Routing');
    const shown = await text();
    assert.match(shown, /Matched route\s+n\/a/);
    assert.match(shown, /Route Matching Logs/);
    assert.match(shown, /home\s+\/\s+Path "\/" does not match/);
    assert.match(shown, /item_edit/);
    await browser.screenshot('routing');
  });

  it('switches to the performance panel: total time, peak memory and the listener timeline', async () => {
    await openPanel('Performance');
    const shown = await text();
    assert.match(shown, /[\d.]+ ms\s+Total time/);
    assert.match(shown, /[\d.]+ MiB\s+Peak memory/);
    assert.match(shown, /ErrorListener\.onKernelException/);
    assert.ok(await browser.page.locator('.timeline-bar').first().isVisible());
    await browser.screenshot('performance');
  });

  it('shows the configuration with its rate limiters and no secret', async () => {
    await openPanel('Configuration');
    const shown = await text();
    assert.match(shown, /dev\s+Environment/);
    assert.match(shown, new RegExp(`${process.version.replaceAll('.', '\\.')}\\s+Node\\.js`));
    assert.match(shown, /rateLimiter/);
    await browser.screenshot('configuration');
  });

  it('follows the sub-request link to the error sub-request and its parent link back', async () => {
    await openPanel('Request / Response');
    await browser.page.locator('#panel ul a', { hasText: sub }).click();
    await browser.page.waitForLoadState('load');
    assert.match(browser.page.url(), new RegExp(`/_profiler/${sub}$`));
    assert.equal(await browser.page.locator('#panel').getAttribute('data-panel'), 'exception');
    await openPanel('Request / Response');
    const shown = await text();
    assert.match(shown, /Controller\s+ErrorController/);
    assert.match(shown, new RegExp(`Parent Request\\s+${main}`));
    await browser.screenshot('sub-request');
    await browser.page.locator('#panel a', { hasText: main }).last().click();
    await browser.page.waitForLoadState('load');
    assert.match(browser.page.url(), new RegExp(`/_profiler/${main}$`));
  });

  it('searches the records by status 404, newest first', async () => {
    const { page } = browser;
    await page.goto(`${origin}/_profiler/`);
    assert.match(page.url(), /\/_profiler\/empty\/search\/results\?limit=10$/);
    await page.locator('input[name="status_code"]').fill('404');
    await page.locator('#search button[type="submit"]').click();
    await page.waitForLoadState('load');
    const rows = await page.locator('#search-results tbody tr').allInnerTexts();
    assert.ok(rows.length >= 2, rows.join('\n'));
    assert.ok(rows.every((row) => row.startsWith('404')), rows.join('\n'));
    assert.match(rows[0]!, new RegExp(`${main}$`));
    assert.match(rows[1]!, new RegExp(`sub-request of ${main}[^]*${sub}$`));
    assert.equal(await page.locator('input[name="status_code"]').inputValue(), '404');
    await browser.screenshot('search');
  });

  it('opens the toolbar on GET / and follows it to the record', async () => {
    const { page } = browser;
    const response = await page.goto(`${origin}/`);
    const token = response!.headers()['x-debug-token']!;
    assert.equal(response!.headers()['x-debug-token-link'], `${origin}/_profiler/${token}`);
    const toolbar = page.locator(`#sfwdt${token}`);
    assert.ok(await toolbar.isVisible());
    const bar = await toolbar.innerText();
    assert.match(bar, /^200\s+home\s+\d+ ms\s+[\d.]+ MiB\s+\d+ logs?/);
    await browser.screenshot('toolbar');
    await toolbar.locator('a.sf-toolbar-token').click();
    await page.waitForLoadState('load');
    assert.match(page.url(), new RegExp(`/_profiler/${token}$`));
    assert.match(await text(), /200 GET http:\/\/127\.0\.0\.1:\d+\/\s/);
    assert.equal(await page.locator('#panel').getAttribute('data-panel'), 'request');
  });

  it('opens a project file on its line from the debug page, the exception panel and the events panel', async () => {
    const { page } = browser;
    const source = '/_profiler/open?file=src%2Fcheckout.ts&line=2#line2';
    browser.expectErrorDocument(`${origin}/checkout`);
    const response = await page.goto(`${origin}/checkout`);
    assert.equal(response?.status(), 500);
    const token = response!.headers()['x-debug-token']!;
    assert.match(await text(), /Card declined on purpose/);
    // The frame's file is a link; keel's own frames (outside the project) are not.
    const frame = page.locator('.trace-file-path a', { hasText: 'checkout.ts' }).first();
    assert.equal(await frame.getAttribute('href'), source);
    await frame.click();
    await page.waitForLoadState('load');
    const { pathname, search, hash } = new URL(page.url());
    assert.equal(pathname + search + hash, source);
    assert.equal(await page.locator('#panel h2').innerText(), 'src/checkout.ts');
    const selected = page.locator('#panel li.selected');
    assert.equal(await selected.getAttribute('id'), 'line2');
    assert.equal(await selected.innerText(), "  throw new Error('Card declined on purpose');");
    // Scrolled to it: the #line2 anchor puts the failing line in view.
    assert.ok(await selected.evaluate((line) => line.getBoundingClientRect().top >= 0 && line.getBoundingClientRect().bottom <= window.innerHeight));
    await browser.screenshot('source-file');

    await page.goto(`${origin}/_profiler/${token}`);
    assert.equal(await page.locator('#panel').getAttribute('data-panel'), 'exception');
    const panelFrame = page.locator('#panel .trace-file-path a', { hasText: 'checkout.ts' }).first();
    assert.equal(await panelFrame.getAttribute('href'), source);
    await panelFrame.click();
    await page.waitForLoadState('load');
    assert.equal(await page.locator('#panel li.selected').getAttribute('id'), 'line2');

    await page.goto(`${origin}/_profiler/${token}?panel=events`);
    const listener = page.locator('#panel tr', { hasText: 'auditCheckout' }).first();
    assert.match(await listener.innerText(), /response\s+0\s+auditCheckout\s+src\/checkout\.ts:5\s+1\s/);
    await listener.locator('a', { hasText: 'src/checkout.ts:5' }).click();
    await page.waitForLoadState('load');
    assert.equal(await page.locator('#panel li.selected').getAttribute('id'), 'line5');
    assert.equal(await page.locator('#panel li.selected').innerText(), 'export function auditCheckout(): void {');
  });

  it('saw no console error and no failed asset request on any page', () => {
    assert.deepEqual(browser.problems, []);
  });
});
