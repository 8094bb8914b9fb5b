import type { KeelConfig } from '../../config/config.js';
import type { Collector } from './collector.js';
import { maskSecrets } from '../../config/mask-secrets.js';
import { KEEL_VERSION } from '../../internal/keel-version.js';
import { freezeWithJson } from '../profile-json.js';

export interface ConfigData {
  env: string;
  debug: boolean;
  nodeVersion: string;
  keelVersion: string;
  /** The effective configuration (rate limiters included), secret-named keys masked. */
  config: unknown;
}

/** The effective configuration, secrets masked once at start-up: collecting only hands out the snapshot. */
export class ConfigCollector implements Collector<ConfigData> {
  readonly name = 'config';
  #data: ConfigData;

  constructor(config: KeelConfig) {
    // The same snapshot goes into every record, serialised once for all of them.
    this.#data = freezeWithJson({ env: config.env, debug: config.debug, nodeVersion: process.version, keelVersion: KEEL_VERSION, config: maskSecrets(config) });
  }

  collect(): ConfigData {
    return this.#data;
  }
}
