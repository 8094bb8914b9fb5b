/**
 * The same text as one contiguous string. Concatenation (`+=`, templates) builds a tree of pieces that V8
 * copies into one block when the text is written out; a cached piece of markup is written inside a new page
 * every time, and V8 only ever flattens the outer tree, so an unflattened cached piece is walked node by
 * node on every write. Exact for any string, lone surrogates included (JSON escapes and restores them).
 * @example const html = flatString(renderToString(<Frame />)); // cache `html`, not the tree
 */
export function flatString(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}
