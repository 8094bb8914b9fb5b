/**
 * A query parameter as the reference's pages read it (`$request->query->get()`, after PHP's parse_str):
 * of a parameter given twice, the last value. `?panel=request&panel=logger` opens the logs.
 * @example queryParameter(new URLSearchParams('limit=5&limit=20'), 'limit') // '20'
 */
export function queryParameter(query: URLSearchParams, name: string): string | null {
  const values = query.getAll(name);
  return values.length === 0 ? null : values[values.length - 1]!;
}
