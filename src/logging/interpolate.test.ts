import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { interpolate } from './interpolate.js';

// Expected texts are Monolog 2.9's PsrLogMessageProcessor output for the PHP counterpart of each value.
describe('interpolate', () => {
  it('fills scalars and leaves unknown placeholders', () => {
    assert.equal(interpolate('Matched route "{route}" ({n}, {missing}).', { route: 'home', n: 3 }), 'Matched route "home" (3, {missing}).');
  });

  it('casts null and booleans as PHP does', () => {
    assert.equal(interpolate('[{a}] [{b}] [{c}]', { a: null, b: true, c: false }), '[] [1] []');
  });

  it('writes NaN and infinities as PHP does', () => {
    assert.equal(interpolate('{a} {b} {c}', { a: Number.NaN, b: Infinity, c: -Infinity }), 'NAN INF -INF');
  });

  it('writes a date with microseconds and +00:00, and an invalid date without throwing', () => {
    assert.equal(interpolate('at {d}', { d: new Date(Date.UTC(2026, 10, 22, 10, 52, 3, 253)) }), 'at 2026-11-22T10:52:03.253000+00:00');
    assert.equal(interpolate('at {d}', { d: new Date('nope') }), 'at Invalid Date');
  });

  it('writes lists and plain objects as `array` and their JSON, class instances by class name', () => {
    class Key {
      declare readonly resource: string;

      constructor(resource: string) {
        this.resource = resource;
      }
    }
    assert.equal(interpolate('{l} {m} {k}', { l: [1, 'a/é'], m: { a: 1 }, k: new Key('r') }), 'array[1,"a/é"] array{"a":1} [object Key]');
  });

  it('writes `arraynull` for a structure JSON cannot encode, as Monolog does for a failed encoding', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.equal(interpolate('{c}', { c: cyclic }), 'arraynull');
  });

  it('fills placeholders of any name the context has, and only its own keys', () => {
    assert.equal(interpolate('{user-id} {clé} { with spaces } {}', { 'user-id': 7, clé: 'k', ' with spaces ': 's', '': 'e' }), '7 k s e');
    assert.equal(interpolate('{constructor} {toString}', {}), '{constructor} {toString}');
  });

  it('fills a secret-named placeholder with the mask when asked to, an empty one with nothing', () => {
    const values = { user: 'ada', password: 'hunter2', api_key: 'K3Y', token: '' };
    assert.equal(interpolate('{user} {password} {api_key} [{token}]', values, { maskSecrets: true }), 'ada ****** ****** []');
    assert.equal(interpolate('{user} {password} {api_key} [{token}]', values), 'ada hunter2 K3Y []');
  });

  it('fills in one pass', () => {
    assert.equal(interpolate('{a} {b}', { a: '{b}', b: 'B' }), '{b} B');
  });

  it('fills an object with a string form of its own with it (a URL its href), any other with its class', () => {
    class Broken {
      toString(): string {
        throw new Error('no');
      }
    }
    assert.equal(interpolate('{url} {ids} {broken}', { url: new URL('https://api.example.test/v1?page=2'), ids: new Set([1]), broken: new Broken() }), 'https://api.example.test/v1?page=2 [object Set] [object Broken]');
  });

  it('names a function by its name, as the context shows it, never by its source text', () => {
    const named = function onTick(): number {
      return 42;
    };
    assert.equal(interpolate('{a} {b} {c}', { a: named, b: () => 1, c: class Job {} }), '[function onTick] [function b] [function Job]');
    assert.equal(interpolate('{f}', { f: Object.defineProperty(() => 1, 'name', { value: '' }) }), '[function anonymous]');
  });
});
