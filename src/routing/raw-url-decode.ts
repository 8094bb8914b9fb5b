const ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g;
// ignoreBOM: a decoder strips a leading U+FEFF from what it decodes, and each run of escapes is decoded
// apart: `/%EF%BB%BFadmin` would have reached the route of `/admin`, a path that matches what it is not.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * PHP's rawurldecode() as the matcher needs it: `%XX` escapes are decoded, anything else (`%zz`, a lone
 * `%`, `+`) is kept as it is, and nothing ever throws. Returns undefined when the decoded bytes are not
 * UTF-8: no route can match such a path (route regexes are Unicode, as with Symfony's `utf8` option).
 * @example rawUrlDecode('/caf%C3%A9/%zz') // '/café/%zz'
 */
export function rawUrlDecode(path: string): string | undefined {
  if (!path.includes('%')) return path;
  let valid = true;
  const decoded = path.replace(ESCAPES, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
    try {
      return utf8.decode(bytes);
    } catch {
      valid = false;
      return run;
    }
  });
  return valid ? decoded : undefined;
}
