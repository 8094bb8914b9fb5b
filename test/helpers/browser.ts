import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const CHROMIUM = process.env.KEEL_CHROMIUM ?? '/usr/bin/chromium';
// Offline and quiet: no background traffic, no component updates, nothing but the page under test.
const ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-gpu', '--disable-quic'];

export interface Browser {
  page: Page;
  context: BrowserContext;
  /** Problems seen so far: console errors, uncaught page errors, failed or erroring sub-resource requests. */
  problems: string[];
  /** Navigations whose document is expected to answer an error status (its console line is then no problem). */
  expectErrorDocument(url: string): void;
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Headless Chromium (the system's `/usr/bin/chromium`, or KEEL_CHROMIUM) with a fresh profile directory,
 * recording every console error, page error and failed asset request so a test can fail on any of them.
 * Screenshots go to `test-artifacts/<folder>/`. Throws a one-line message when Chromium is missing.
 */
export async function launchBrowser({ artifacts = 'test-artifacts/profiler' }: { artifacts?: string } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: install chromium (apt-get install chromium)`);
  const userDataDir = mkdtempSync(join(tmpdir(), 'keel-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, args: ARGS, headless: true, viewport: { width: 1280, height: 900 } });
  // Chromium probes /favicon.ico on its own for any page without an icon link: that probe is not an asset
  // the page asked for, and would add a 404 record of its own to every search.
  await context.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  const errorDocuments = new Set<string>();
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const at = message.location().url;
    if (errorDocuments.has(at) && /status of \d{3}/.test(message.text())) return;
    problems.push(`console error at ${at}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`));
  page.on('response', (response) => {
    if (response.status() >= 400 && response.request().resourceType() !== 'document') problems.push(`asset ${response.url()} answered ${response.status()}`);
  });
  mkdirSync(artifacts, { recursive: true });
  return {
    page,
    context,
    problems,
    expectErrorDocument: (url) => errorDocuments.add(url),
    async screenshot(name) {
      const path = join(artifacts, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
