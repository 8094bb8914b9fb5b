import type { KeelConfig } from '../../config/config.js';
import type { Collector } from './collector.js';
import { maskDeep } from './mask.js';

export interface ConfigData {
  config: unknown;
}

/** The effective configuration, secrets masked once at start-up: collecting only hands out the snapshot. */
export class ConfigCollector implements Collector<ConfigData> {
  readonly name = 'config';
  #data: ConfigData;

  constructor(config: KeelConfig) {
    this.#data = { config: maskDeep(config) };
  }

  collect(): ConfigData {
    return this.#data;
  }
}
