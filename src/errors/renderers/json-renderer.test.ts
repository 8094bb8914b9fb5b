import { JsonRenderer } from './json-renderer.js';
import { describeRendererContract } from './renderer.contract.js';

describeRendererContract('JsonRenderer', () => new JsonRenderer());
