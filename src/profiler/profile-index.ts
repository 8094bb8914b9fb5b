import type { ProfileSummary } from './profile.js';
import { isRingName, type RecordLocation } from './record-ring.js';
import { isProfileToken } from './token.js';

/** An index line: the record's summary, and where the file store keeps its bytes. */
export interface IndexEntry extends ProfileSummary {
  location?: RecordLocation;
  /** The line holds only the URL's beginning, the longest that kept it under its bound; the record holds it whole. */
  urlCut?: true;
}

// The last field of a line whose URL is cut: no other column's last value (a type, a number) reads so.
const URL_CUT = 'url-cut';

/**
 * One line of index.csv per record, Symfony's columns: token, ip, method, url, time, parent, status, type;
 * then, in the file store, the record's ring, slot and length, and for a record compressed with others its
 * offset and size in the decompressed group; last, `url-cut` when the URL column holds only the URL's
 * beginning (see appendIndexLines). Fields are quoted as RFC 4180 says when they
 * hold a comma or a quote (a URL can). Only the free-text columns (ip, method, url) are checked: the others
 * are tokens, numbers and ring names of a fixed alphabet, and checking every column was most of the cost of
 * appending a batch of lines.
 */
export function formatIndexLine({ token, ip, method, url, time, parent, statusCode, type, location, urlCut }: IndexEntry): string {
  const head = `${token},${quoteField(ip)},${quoteField(method)},${quoteField(url)},${time},${parent ?? ''},${statusCode},${type}`;
  const tail = urlCut === true ? `,${URL_CUT}\n` : '\n';
  if (location === undefined) return `${head}${tail}`;
  const { ring, slot, length, part } = location;
  return part === undefined ? `${head},${ring},${slot},${length}${tail}` : `${head},${ring},${slot},${length},${part.offset},${part.size}${tail}`;
}

/**
 * Parses a line back; undefined for anything malformed (a torn append, a hand edit), which readers skip.
 * A purge parses every line of each newly sealed segment, so the usual line (no quoted field) is split
 * directly and the entry built in one step.
 */
export function parseIndexLine(line: string): IndexEntry | undefined {
  const fields = line.includes('"') ? splitFields(line) : line.split(',');
  if (fields === undefined || fields.length < 7) return undefined;
  const urlCut = fields.at(-1) === URL_CUT;
  if (urlCut) fields.pop();
  const [token, ip, method, url, time, parent, status, type = 'request', ring, slot, length, offset, size] = fields as [string, string, string, string, string, string, string, string?, string?, string?, string?, string?, string?];
  if (!isProfileToken(token) || (parent !== '' && !isProfileToken(parent))) return undefined;
  const seconds = Number(time);
  const statusCode = Number(status);
  if (!Number.isInteger(seconds) || !Number.isInteger(statusCode) || type !== 'request') return undefined;
  const parentToken = parent === '' ? undefined : parent;
  if (ring === undefined) return { token, ip, method, url, time: seconds, parent: parentToken, statusCode, type };
  // The ring becomes a folder name: checked like the token, never trusted as a path.
  if (!isRingName(ring) || !COUNT.test(slot ?? '') || !COUNT.test(length ?? '')) return undefined;
  const location: RecordLocation = { ring, slot: Number(slot), length: Number(length) };
  // A record compressed with others: where it is in its group.
  if (offset !== undefined || size !== undefined) {
    if (!COUNT.test(offset ?? '') || !COUNT.test(size ?? '')) return undefined;
    location.part = { offset: Number(offset), size: Number(size) };
  }
  const entry: IndexEntry = { token, ip, method, url, time: seconds, parent: parentToken, statusCode, type, location };
  if (urlCut) entry.urlCut = true;
  return entry;
}

const COUNT = /^\d{1,15}$/;

const SPECIAL = /[",\r\n]/;

// Line breaks are percent-encoded rather than quoted: the index is read line by line.
function quoteField(raw: string): string {
  if (!SPECIAL.test(raw)) return raw;
  const value = raw.replace(/[\r\n]/g, (c) => encodeURIComponent(c));
  return /[",]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

function splitFields(line: string): string[] | undefined {
  const fields: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const quote = line.indexOf('"', i);
        if (quote === -1) return undefined;
        value += line.slice(i, quote);
        if (line[quote + 1] === '"') {
          value += '"';
          i = quote + 2;
          continue;
        }
        i = quote + 1;
        break;
      }
      if (i < line.length && line[i] !== ',') return undefined;
      fields.push(value);
    } else {
      const comma = line.indexOf(',', i);
      const end = comma === -1 ? line.length : comma;
      fields.push(line.slice(i, end));
      i = end;
    }
    i++;
  }
  return fields;
}
