import type { Logger } from './logger.js';

/** A logger that drops every record: for tests of components that must be given one and whose lines do not matter. */
export const silentLogger: Logger = {
  channelName: 'test',
  channel: () => silentLogger,
  log: () => {},
  debug: () => {},
  info: () => {},
  warning: () => {},
  error: () => {},
  critical: () => {},
};
