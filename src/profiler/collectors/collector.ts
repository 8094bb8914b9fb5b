import type { Request } from '../../http/request.js';
import type { Response } from '../../http/response.js';

/**
 * Gathers one kind of data about a request for its profile; the profiler panel with the same name
 * shows it. `collect` runs on every profiled response, so it must stay cheap: copy references and
 * numbers, defer anything costly (serialising, walking big structures) to `lateCollect`, which runs
 * after the response has been sent.
 *
 * Data handed out for many records (a snapshot taken once, an error shared by a request and its error
 * sub-request) may be returned frozen (`Object.freeze`): a frozen object promises that nothing under it
 * changes any more, and its JSON text is then written once and reused for every record that carries it.
 */
export interface Collector<T = unknown> {
  readonly name: string;
  collect(request: Request, response: Response, error: unknown): T;
  /** `error` is the one `collect` was given. */
  lateCollect?(data: T, request: Request, response: Response, error: unknown): T;
}
