import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contrastRatio, rootColours } from '../../../test/helpers/css-contrast.js';
import { findProfilerAsset } from './profiler-assets.js';

// The page's grey, the panels' and tables' white, and the source excerpts' grey.
const BACKGROUNDS = ['#f9f9f9', '#fff', '#f7f7f7'];

describe('the profiler stylesheet', () => {
  it('keeps text, muted text and links at 4.5:1 or more against the page, panels and source excerpts', () => {
    const { light } = rootColours(findProfilerAsset('profiler.css')!.body);
    for (const colour of ['--text', '--muted', '--link']) {
      for (const background of BACKGROUNDS) {
        const ratio = contrastRatio(light[colour]!, background);
        assert.ok(ratio >= 4.5, `${colour} ${light[colour]} on ${background}: ${ratio.toFixed(2)}`);
      }
    }
  });
});
