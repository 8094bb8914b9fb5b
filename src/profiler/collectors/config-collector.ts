import { configWithoutDotenv, type KeelConfig } from '../../config/config.js';
import type { Collector } from './collector.js';
import { maskSecrets } from '../../config/mask-secrets.js';
import { KEEL_VERSION } from '../../internal/keel-version.js';
import { freezeWithJson } from '../profile-json.js';
import { processServerParameters, snapshotServerParameters, type ServerParameters } from './server-parameters.js';

export interface ConfigData {
  env: string;
  debug: boolean;
  nodeVersion: string;
  keelVersion: string;
  /** The effective configuration (rate limiters included), secret-named keys masked. */
  config: unknown;
  /**
   * The request panel's Server Parameters: the process environment, sorted, secrets masked. Kept with the
   * configuration, whose snapshot is serialised once per process, rather than in each request's data,
   * where every record would write its ~1.6 kB again. Absent from records made before it was recorded.
   */
  serverParameters?: ServerParameters;
  /**
   * The request panel's "Defined in .env": the variables the project's `.env` files set, sorted, secrets
   * masked. Absent from records made before it was recorded.
   */
  dotenvParameters?: ServerParameters;
}

export interface ConfigCollectorOptions {
  /** The environment shown as Server Parameters; by default the process's, snapshot once per process. */
  env?: Record<string, string | undefined>;
}

/** The effective configuration, secrets masked once at start-up: collecting only hands out the snapshot. */
export class ConfigCollector implements Collector<ConfigData> {
  readonly name = 'config';
  #data: ConfigData;

  constructor(config: KeelConfig, { env }: ConfigCollectorOptions = {}) {
    // The same snapshot goes into every record, serialised once for all of them.
    const serverParameters = env === undefined ? processServerParameters() : snapshotServerParameters(env);
    const dotenvParameters = snapshotServerParameters(config.dotenvVars ?? {});
    this.#data = freezeWithJson({
      env: config.env,
      debug: config.debug,
      nodeVersion: process.version,
      keelVersion: KEEL_VERSION,
      config: maskSecrets(configWithoutDotenv(config)),
      serverParameters,
      dotenvParameters,
    });
  }

  collect(): ConfigData {
    return this.#data;
  }
}
