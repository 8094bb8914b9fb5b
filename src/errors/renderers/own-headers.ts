/**
 * Adds an error's own headers (an HttpException's Allow, Retry-After…) to those a renderer made, as
 * Symfony's FlattenException merges them: a name the renderer already set (in any case) takes the error's
 * name and value at its place, so that the response has one Content-Type, not the renderer's and the
 * error's; any other name follows. The list is changed in place and returned.
 * @example withOwnHeaders([['Content-Type', 'text/html']], { 'content-type': 'text/plain' }) // [['content-type', 'text/plain']]
 */
export function withOwnHeaders(headers: [string, string][], own: Readonly<Record<string, string>>): [string, string][] {
  // The flattened headers are a copy of the error's own, so for…in meets no inherited name.
  for (const name in own) {
    const key = name.toLowerCase();
    const at = headers.findIndex(([given]) => given.toLowerCase() === key);
    if (at === -1) headers.push([name, own[name]!]);
    else headers[at] = [name, own[name]!];
  }
  return headers;
}
