/** A configuration value that cannot be used; `code` is `KEEL_ERR_CONFIG_INVALID`. */
export class ConfigError extends Error {
  readonly code = 'KEEL_ERR_CONFIG_INVALID';

  constructor(variable: string, value: string, expected: string) {
    super(`${variable}="${value}" is invalid: expected ${expected}.`);
    this.name = 'ConfigError';
  }
}
