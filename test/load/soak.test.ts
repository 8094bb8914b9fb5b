import { describe, it } from 'node:test';
import { assertSoak, runSoak } from './run-soak.js';

// The short soak of every test run; `npm run test:load` runs the long one (test/load/soak.load.ts).
const AMOUNT = 20_000;

describe('a short soak: 20 000 mixed requests at 64 connections in dev mode', () => {
  it('answers every request without a 5xx or a connection error, with flat memory, bounded storage and openable records', async (t) => {
    const report = await runSoak({ amount: AMOUNT, connections: 64, maxRecords: 4000 });
    t.diagnostic(JSON.stringify({ ...report, rssSamples: report.rssSamples.join(' ') }));
    assertSoak(report, AMOUNT);
  });
});
