/**
 * How to turn a text into the bytes of its UTF-8 the cheapest way: an ASCII text (its UTF-8 as long as the
 * text itself) has the same bytes in Latin-1, which node copies character for character where UTF-8 encodes
 * them one by one (a 32 kB page: ~5 µs against ~20 here). `utf8Bytes` is Buffer.byteLength(text), when the
 * caller has it already.
 * @example res.end(page, cheapestEncoding(page)) // the same bytes as res.end(page)
 */
export function cheapestEncoding(text: string, utf8Bytes = Buffer.byteLength(text)): BufferEncoding {
  return utf8Bytes === text.length ? 'latin1' : 'utf8';
}
