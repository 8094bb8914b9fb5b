import { readFileSync } from 'node:fs';
import type { KeelConfig } from '../../config/config.js';
import type { Collector } from './collector.js';
import { maskSecrets } from '../../config/mask-secrets.js';

export interface ConfigData {
  env: string;
  debug: boolean;
  nodeVersion: string;
  keelVersion: string;
  /** The effective configuration (rate limiters included), secret-named keys masked. */
  config: unknown;
}

const KEEL_VERSION = readKeelVersion();

/** The effective configuration, secrets masked once at start-up: collecting only hands out the snapshot. */
export class ConfigCollector implements Collector<ConfigData> {
  readonly name = 'config';
  #data: ConfigData;

  constructor(config: KeelConfig) {
    // Frozen: the same snapshot goes into every record, serialised once.
    this.#data = Object.freeze({ env: config.env, debug: config.debug, nodeVersion: process.version, keelVersion: KEEL_VERSION, config: maskSecrets(config) });
  }

  collect(): ConfigData {
    return this.#data;
  }
}

function readKeelVersion(): string {
  try {
    const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
