import { after, before } from 'node:test';
import { launchBrowser, type Browser } from './browser.js';
import { startDemo, type RunningDemo } from './start-demo.js';

export interface DemoInBrowser {
  readonly demo: RunningDemo;
  readonly browser: Browser;
  /** `http://127.0.0.1:<port>` of the demo. */
  readonly origin: string;
}

/**
 * The demo application and a headless Chromium for the suite being declared: started in a `before` hook
 * registered where this is called (so hooks declared after it run once both are up), stopped after the
 * suite. The browser saves its screenshots and traces under `artifacts`. Read the fields in hooks and tests.
 * @example const ui = demoInBrowser('test-artifacts/profiler-keyboard'); … await ui.browser.page.goto(`${ui.origin}/boom`);
 */
export function demoInBrowser(artifacts: string): DemoInBrowser {
  let demo: RunningDemo | undefined;
  let browser: Browser | undefined;
  before(async () => {
    demo = await startDemo();
    browser = await launchBrowser({ artifacts });
  });
  after(async () => {
    await browser?.close();
    await demo?.close();
  });
  return {
    get demo() {
      return started(demo);
    },
    get browser() {
      return started(browser);
    },
    get origin() {
      return `http://127.0.0.1:${started(demo).port}`;
    },
  };
}

function started<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('demoInBrowser(): read its fields in hooks and tests, once the suite has started');
  return value;
}
