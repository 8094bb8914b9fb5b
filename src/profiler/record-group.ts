import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { cheapestEncoding } from '../internal/ascii-encoding.js';

/** Records compressed together at most, and their JSON's size at most, bounding what one read decompresses. */
export const GROUP_RECORDS = 32;
const GROUP_BYTES = 1 << 20;

/** Where one record's JSON is inside the decompressed text of its group, in bytes. */
export interface GroupPart {
  offset: number;
  size: number;
}

export interface PackedGroup {
  /** The group's compressed bytes, for one slot of the ring. */
  data: Buffer;
  /** Each record's place in it, in the order given; undefined for a group of one, which is the record itself. */
  parts: (GroupPart | undefined)[];
}

/**
 * Compresses records one after the other as a single Brotli stream. Records that follow each other are
 * nearly the same (the same routes, headers, configuration and error): together, with a window that spans
 * the group, each after the first is mostly references to the one before, ~150 B a record in a group of
 * twenty where apart each took ~2.3 kB. Brotli at quality 0 (quality 1 saves a few per cent for twice the
 * time), a size hint for the encoder.
 *
 * Its time is per byte given, however repetitive: so the texts of frozen collector data (the odd pieces of
 * profilePieces: the configuration, the listener list, the error a request shares with its error
 * sub-request) that more than one record of the group carries are given once, at the head of the group,
 * and each record names them with a marker, `NUL<offset>,<size>NUL` in bytes of the group, which no JSON
 * text holds (JSON writes U+0000 as `\u0000`). That is about half of a seed 404's bytes.
 */
export function packRecords(records: readonly (readonly string[])[]): PackedGroup {
  const shared = records.length > 1 ? sharedTexts(records) : new Map<string, string>();
  const head: Buffer[] = [];
  let offset = 0;
  for (const text of shared.keys()) {
    const bytes = toBytes(text);
    shared.set(text, `\0${offset},${bytes.length}\0`);
    head.push(bytes);
    offset += bytes.length;
  }
  const buffers = records.map((pieces) => toBytes(pieces.map((piece, i) => (i % 2 === 1 ? (shared.get(piece) ?? piece) : piece)).join('')));
  const json = buffers.length === 1 ? buffers[0]! : Buffer.concat([...head, ...buffers]);
  const window = Math.min(24, Math.max(14, Math.ceil(Math.log2(json.length + 1))));
  const data = brotliCompressSync(json, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 0, [constants.BROTLI_PARAM_LGWIN]: window, [constants.BROTLI_PARAM_SIZE_HINT]: json.length },
  });
  if (buffers.length === 1) return { data, parts: [undefined] };
  const parts = buffers.map(({ length }) => {
    const part = { offset, size: length };
    offset += length;
    return part;
  });
  return { data, parts };
}

// The shared pieces (odd indexes) met more than once in the group, in the order first met; the values are
// filled in with their markers by packRecords.
function sharedTexts(records: readonly (readonly string[])[]): Map<string, string> {
  const seen = new Set<string>();
  const repeated = new Map<string, string>();
  for (const pieces of records) {
    for (let i = 1; i < pieces.length; i += 2) {
      const piece = pieces[i]!;
      if (seen.has(piece)) repeated.set(piece, '');
      else seen.add(piece);
    }
  }
  return repeated;
}

function toBytes(text: string): Buffer {
  return Buffer.from(text, cheapestEncoding(text));
}

// A marker of a shared text in a record (see packRecords).
const SHARED_TEXT = /\0(\d+),(\d+)\0/g;

/**
 * Reads records out of their groups' compressed bytes, keeping the last group decompressed: a developer
 * opens one record's panels one after the other, then its neighbours, which were written in the same group.
 * Decompressing is most of a read (~200 µs for a group of 19 kB here); comparing the bytes read with the
 * kept group's (a few kilobytes) tells a slot rewritten since. Synchronous, as reading the slot is: the
 * thread pool's round trip cost ~300 µs more than the work.
 */
export class GroupReader {
  #last: { data: Buffer; json: Buffer } | undefined;

  /** One record's JSON text; throws for bytes that are no such group. */
  record(data: Buffer, part: GroupPart | undefined): string {
    let json = this.#last !== undefined && this.#last.data.equals(data) ? this.#last.json : undefined;
    if (json === undefined) {
      json = brotliDecompressSync(data);
      this.#last = { data, json };
    }
    if (part === undefined) return json.toString('utf8');
    if (part.offset + part.size > json.length) throw new Error(`the group holds ${json.length} bytes, not ${part.offset + part.size}`);
    const text = json.toString('utf8', part.offset, part.offset + part.size);
    if (!text.includes('\0')) return text;
    const group = json;
    return text.replace(SHARED_TEXT, (_marker, start: string, size: string) => {
      const end = Number(start) + Number(size);
      if (end > part.offset) throw new Error(`a shared text of the group ends at ${end}, past its head`);
      return group.toString('utf8', Number(start), end);
    });
  }
}

/** Cuts items into runs of at most GROUP_RECORDS whose texts add up to at most GROUP_BYTES (a larger text alone). */
export function groupTexts<T extends { size: number }>(items: readonly T[]): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    // Characters, not bytes: the bound needs only to be rough.
    const size = item.size;
    if (current.length > 0 && (current.length === GROUP_RECORDS || bytes + size > GROUP_BYTES)) {
      groups.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}
