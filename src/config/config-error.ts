import { isSecretName, MASK, maskTextSecrets } from './mask-secrets.js';

/** A configuration value that cannot be used; `code` is `KEEL_ERR_CONFIG_INVALID`. */
export class ConfigError extends Error {
  readonly code = 'KEEL_ERR_CONFIG_INVALID';

  constructor(variable: string, value: string, expected: string) {
    // The message lands in terminals and CI logs: a secret setting's value, or a URL's password, is masked.
    super(`${variable}="${isSecretName(variable) ? MASK : maskTextSecrets(value)}" is invalid: expected ${expected}.`);
    this.name = 'ConfigError';
  }
}
