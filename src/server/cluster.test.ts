import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { describe, it } from 'node:test';
import { resolveWorkerCount } from './cluster.js';

describe('resolveWorkerCount', () => {
  it('runs one worker per core in prod and a single process elsewhere by default', () => {
    assert.equal(resolveWorkerCount({}, 'prod'), availableParallelism());
    assert.equal(resolveWorkerCount({}, 'dev'), 1);
    assert.equal(resolveWorkerCount({}, 'test'), 1);
  });

  it('takes KEEL_WORKERS first, then WEB_CONCURRENCY, and "auto" as one per core', () => {
    assert.equal(resolveWorkerCount({ KEEL_WORKERS: '3', WEB_CONCURRENCY: '5' }, 'prod'), 3);
    assert.equal(resolveWorkerCount({ WEB_CONCURRENCY: '5' }, 'dev'), 5);
    assert.equal(resolveWorkerCount({ KEEL_WORKERS: 'auto' }, 'dev'), availableParallelism());
    assert.equal(resolveWorkerCount({ KEEL_WORKERS: ' ', WEB_CONCURRENCY: '2' }, 'prod'), 2);
  });

  it('refuses a count that is not a positive integer, naming the variable', () => {
    assert.throws(() => resolveWorkerCount({ KEEL_WORKERS: '0' }, 'prod'), /KEEL_WORKERS must be a positive integer/);
    assert.throws(() => resolveWorkerCount({ WEB_CONCURRENCY: 'two' }, 'prod'), /WEB_CONCURRENCY must be a positive integer/);
  });
});
