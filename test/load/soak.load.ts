import { describe, it } from 'node:test';
import { assertSoak, runSoak } from './run-soak.js';

// The long soak, run by `npm run test:load` (not by `npm test`: it takes tens of minutes on two cores).
// KEEL_SOAK_REQUESTS changes the amount, for a quicker look.
const AMOUNT = Number(process.env.KEEL_SOAK_REQUESTS ?? 500_000);

describe(`a soak: ${AMOUNT} mixed requests at 64 connections in dev mode`, () => {
  it('answers every request without a 5xx or a connection error, with flat memory, bounded storage and openable records', { timeout: 3 * 3600_000 }, async (t) => {
    const report = await runSoak({ amount: AMOUNT, connections: 64, maxRecords: 4000 });
    t.diagnostic(JSON.stringify({ ...report, rssSamples: undefined }));
    t.diagnostic(`RSS MiB, one sample a second: ${report.rssSamples.join(' ')}`);
    assertSoak(report, AMOUNT);
  });
});
