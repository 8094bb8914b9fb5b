import type { FlatError } from '../flat-error.js';
import { createProblem, renderProblemResponse } from './problem.js';
import type { RenderContext, RenderedError, Renderer } from './renderer.js';

/**
 * The problem details as CSV, for a request whose format is `csv` (a route's `_format`, such as the
 * `/_error/404.csv` preview): the reference's serializer encodes them, with `Content-Type: csv`, the format's
 * name, since Symfony knows no MIME type for it.
 */
export class CsvRenderer implements Renderer {
  render(flat: FlatError, context: RenderContext): RenderedError {
    return renderProblemResponse(flat, context, 'csv', encodeCsv(createProblem(flat, context.debug)));
  }
}

/**
 * A record as Symfony's CsvEncoder writes it with its defaults (hence the reference's `.csv` error
 * previews): nested keys flattened with `.` (`trace.0.file`), empty arrays left out, a header line then
 * the values, each line ended by `\n`; PHP's fputcsv() encloses a field in `"` when it holds a comma, a
 * quote, a space, a tab or a line break, doubling its quotes. Checked against PHP on generated values.
 * @example encodeCsv({ title: 'An error occurred', status: 404 }) // 'title,status\n"An error occurred",404\n'
 */
export function encodeCsv(record: object): string {
  const fields = new Map<string, string>();
  flatten(record, '', fields);
  return `${csvLine([...fields.keys()])}${csvLine([...fields.values()])}`;
}

function flatten(value: object, prefix: string, into: Map<string, string>): void {
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'object' && item !== null) flatten(item as object, `${prefix}${key}.`, into);
    else into.set(`${prefix}${key}`, item === true ? '1' : item === false ? '0' : item === undefined || item === null ? '' : String(item));
  }
}

const NEEDS_ENCLOSURE = /[,"\t\n\r ]/;

function csvLine(fields: string[]): string {
  return `${fields.map((field) => (NEEDS_ENCLOSURE.test(field) ? `"${field.replaceAll('"', '""')}"` : field)).join(',')}\n`;
}
