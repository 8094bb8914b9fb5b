import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HttpRun } from '../scenarios/http.js';
import { REFERENCE_REQUESTS_PER_SECOND, summarize } from './summary.js';

const run = (contender: string, cpuMicrosPerRequest: number, requestsPerSecond: number, repetition = 0): HttpRun => ({
  scenario: 'seed-404',
  contender,
  repetition,
  served: 1000,
  cpuMicrosPerRequest,
  requestsPerSecond,
  p50: 1,
  p99: 2,
  stealShare: 0,
});
const runs = [run('keel-dev', 500, 2000), run('keel-prod', 20, 40_000), run('fastify', 16, 50_000), run('node-http', 13, 60_000)];
const devTarget = (reference?: { url: string; served: number; requestsPerSecond: number }) =>
  summarize(runs, [], [], reference).targets.find((target) => target.description.startsWith('dev, seed 404: ≥ 100×'))!;

describe('summarize', () => {
  it('compares dev throughput with the reference measured in the run when there is one', () => {
    const measured = devTarget({ url: 'http://127.0.0.1:8766/', served: 800, requestsPerSecond: 80 });
    assert.match(measured.description, /80\.0 req\/s measured in this run/);
    assert.equal(measured.measured, '2000 req/s = 25×');
    assert.equal(measured.met, false);
  });

  it('falls back on the documented figure, and says so', () => {
    const documented = devTarget();
    assert.match(documented.description, /per its documentation, not run here/);
    assert.equal(documented.measured, `2000 req/s = ${Math.round(2000 / REFERENCE_REQUESTS_PER_SECOND)}×`);
  });

  it('decides a ratio target by the median, and says in how many repetitions it was met', () => {
    // keel prod against Fastify, repetition by repetition: 0.95, 1.05, 0.98.
    const repeated = [run('keel-prod', 19, 0, 0), run('fastify', 20, 0, 0), run('keel-prod', 21, 0, 1), run('fastify', 20, 0, 1), run('keel-prod', 49, 0, 2), run('fastify', 50, 0, 2)];
    const target = summarize(repeated, [], []).targets.find((each) => each.description.startsWith('prod, seed 404: keel CPU/request ≤ Fastify'))!;
    assert.equal(target.measured, '0.98× (0.95–1.05; met in 2 of 3 repetitions)');
    assert.equal(target.met, true);
  });

  it('gives no range for a single repetition', () => {
    const target = summarize(runs, [], []).targets.find((each) => each.description.startsWith('prod, seed 404: keel CPU/request ≤ Fastify'))!;
    assert.equal(target.measured, '1.25× (met in 0 of 1 repetitions)');
    assert.equal(target.met, false);
  });
});
