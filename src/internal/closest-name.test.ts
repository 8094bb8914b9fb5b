import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { closestName, didYouMean } from './closest-name.js';

describe('closestName', () => {
  it('finds the name meant by a typo, a case slip or a missing letter, and nothing for a name far from all', () => {
    const keys = ['name', 'path', 'controller', 'methods', 'requirements', 'defaults'];
    assert.equal(closestName('controler', keys), 'controller');
    assert.equal(closestName('method', keys), 'methods');
    assert.equal(closestName('Requirements', keys), 'requirements');
    assert.equal(closestName('requirement', keys), 'requirements');
    assert.equal(closestName('handler', keys), undefined);
    assert.equal(didYouMean('limitters', ['limiters', 'limiterAccount']), ' (did you mean "limiters"?)');
    assert.equal(didYouMean('zzz', ['limiters']), '');
  });
});
