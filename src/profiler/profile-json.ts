import type { Profile } from './profile.js';

/**
 * Texts of frozen collector data, by object, for the records of one write (see stringifyProfile). Made per
 * batch and dropped with it: a cache that outlived the batch (eight entries, held by a module-level Map)
 * kept each request's error data and its text alive across young-generation collections, and V8 moved
 * them to the old generation: ~230 kB promoted per scavenge with the profiler on, and scavenges ~3 times
 * as long (measured with --trace-gc-nvp under the seed request).
 */
export type CollectorTexts = Map<object, string>;

/**
 * A profile as JSON, the same text JSON.stringify would give, except that collector data returned frozen
 * is stringified once per `texts` and its text reused: the configuration snapshot every record carries and
 * the error a failed request shares with its error sub-request make up about a third of what a 404 writes.
 */
export function stringifyProfile(profile: Profile, texts?: CollectorTexts): string {
  return profilePieces(profile, texts).join('');
}

/**
 * stringifyProfile()'s text in pieces: written text at even indexes, and at odd ones the texts of frozen
 * collector data, which the records written together share (see packRecords).
 */
export function profilePieces(profile: Profile, texts?: CollectorTexts): string[] {
  const { collectors, ...fields } = profile;
  const pieces: string[] = [];
  let written = `${JSON.stringify(fields).slice(0, -1)},"collectors":{`;
  let separator = '';
  for (const name of Object.keys(collectors)) {
    const data = collectors[name];
    const shared = sharedText(data, texts);
    const text = shared ?? (JSON.stringify(data) as string | undefined);
    if (text === undefined) continue;
    written += `${separator}${JSON.stringify(name)}:`;
    separator = ',';
    if (shared === undefined) {
      written += text;
    } else {
      pieces.push(written, shared);
      written = '';
    }
  }
  pieces.push(`${written}}}`);
  return pieces;
}

const JSON_TEXT = Symbol('keel.profile.jsonText');

/**
 * Freezes collector data that every record carries for as long as the process lives (the configuration,
 * the listener list), its JSON text made now, once: records write that text instead of serialising the
 * data again for each batch. The text lives as long as the data, so unlike a cache of each request's texts
 * it puts nothing in the young generation. `text`, when given, must be what JSON.stringify(data) reads as.
 */
export function freezeWithJson<T extends object>(data: T, text: string = JSON.stringify(data)): Readonly<T> {
  Object.defineProperty(data, JSON_TEXT, { value: text });
  return Object.freeze(data);
}

// The text of frozen data: its own (freezeWithJson), or made once per `texts`; undefined for any other value.
function sharedText(data: unknown, texts: CollectorTexts | undefined): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const own = (data as { [JSON_TEXT]?: unknown })[JSON_TEXT];
  if (typeof own === 'string') return own;
  if (texts === undefined || !Object.isFrozen(data)) return undefined;
  let text = texts.get(data);
  if (text === undefined) texts.set(data, (text = JSON.stringify(data)));
  return text;
}
