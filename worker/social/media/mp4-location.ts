import { type Box, boxAt, type ReadAt } from './mp4';

// Where phones and editors write a video's location in ISO base media / QuickTime files, and how it is blanked
// without moving a byte: each such box becomes a `free` box of the same size, zero-filled, so every offset into
// the file (the sample tables' `stco`/`co64`) stays right and nothing is re-encoded.

/** Bytes [at, end) become zero, then `head` is written at `at`. */
export interface Overwrite {
  at: number;
  end: number;
  head: Uint8Array;
}

/** Boxes that hold a place: QuickTime's and Android's `©xyz`, 3GPP's `loci`, and Adobe's XMP box in `udta`. */
const LOCATION_BOXES = new Set(['\u00a9xyz', 'loci', 'XMP_']);
/** Adobe's XMP `uuid` box (BE7ACFCB-97A9-42E8-9C71-999491E3AFAC): XMP carries GPS, and nothing decoding needs. */
const XMP_UUID = 'be7acfcb97a942e89c71999491e3afac';
/** `mdta` keys naming a place: `com.apple.quicktime.location.ISO6709` and its accuracy, name and notes. */
const LOCATION_KEY = /location/i;
/** Boxes walked at most: a phone's file has a few dozen where these live; a crafted one must not walk forever. */
const MAX_BOXES = 5000;
/** The most of a `keys` box read: an iPhone's is under 1 KB. */
const KEYS_MAX_BYTES = 64 * 1024;

/** Where a box starts in the file, beside where its payload starts and it ends. */
type PlacedBox = Box & { at: number; header: Uint8Array };

const text = (bytes: Uint8Array) => String.fromCharCode(...bytes);
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** The box turned into a `free` box of the same size, its payload zeroed (a 64-bit size is kept as it is). */
function freed(box: PlacedBox): Overwrite {
  const largeSize = box.start - box.at === 16 ? box.header.subarray(8, 16) : new Uint8Array(0);
  const head = new Uint8Array(4 + largeSize.length);
  head.set([0x66, 0x72, 0x65, 0x65]);
  head.set(largeSize, 4);
  return { at: box.at + 4, end: box.end, head };
}

/** The 1-based indexes of the `keys` box's location keys. */
function locationKeyIndexes(keys: Uint8Array): Set<number> {
  const found = new Set<number>();
  const view = new DataView(keys.buffer, keys.byteOffset, keys.byteLength);
  if (keys.length < 8) return found;
  const count = view.getUint32(4);
  for (let i = 1, pos = 8; i <= count && pos + 8 <= keys.length; i++) {
    const size = view.getUint32(pos);
    if (size < 8) break;
    if (LOCATION_KEY.test(text(keys.subarray(pos + 8, Math.min(pos + size, keys.length))))) found.add(i);
    pos += size;
  }
  return found;
}

/**
 * Every place the file records where it was made, as overwrites that blank it: `©xyz`, `loci` and `XMP_` in any
 * `udta`; `mdta` location keys' values and `©xyz` items in a `meta` box's `ilst`; XMP `uuid` boxes anywhere.
 * Reads box headers only (and `keys`), so the media data is never read.
 */
export async function locationOverwrites(read: ReadAt, fileBytes: number): Promise<Overwrite[]> {
  const overwrites: Overwrite[] = [];
  let budget = MAX_BOXES;

  const boxesIn = async (from: number, to: number): Promise<PlacedBox[]> => {
    const boxes: PlacedBox[] = [];
    for (let at = from; at + 8 <= to && budget-- > 0; ) {
      const header = await read(at, 32);
      const box = boxAt(header, 0, to - at);
      if (!box || at + box.end > to || box.end <= 0) break;
      boxes.push({ type: box.type, at, start: at + box.start, end: at + box.end, header });
      at += box.end;
    }
    return boxes;
  };

  const isXmp = (box: PlacedBox) =>
    box.type === 'uuid' && hex(box.header.subarray(box.start - box.at, box.start - box.at + 16)) === XMP_UUID;

  const walkMeta = async (meta: PlacedBox) => {
    // ISO's meta box has a version and flags before its children; QuickTime's starts with its handler at once.
    const first = await read(meta.start, 8);
    const from = text(first.subarray(4, 8)) === 'hdlr' ? meta.start : meta.start + 4;
    const children = await boxesIn(from, meta.end);
    const keys = children.find((box) => box.type === 'keys');
    const locationKeys = keys
      ? locationKeyIndexes(await read(keys.start, Math.min(keys.end - keys.start, KEYS_MAX_BYTES)))
      : new Set<number>();
    for (const box of children) {
      if (isXmp(box)) overwrites.push(freed(box));
      if (box.type !== 'ilst') continue;
      for (const item of await boxesIn(box.start, box.end)) {
        const index = new DataView(item.header.buffer, item.header.byteOffset).getUint32(4);
        if (LOCATION_BOXES.has(item.type) || locationKeys.has(index)) overwrites.push(freed(item));
      }
    }
  };

  const walk = async (from: number, to: number, inUserData: boolean) => {
    for (const box of await boxesIn(from, to)) {
      if (isXmp(box) || (inUserData && LOCATION_BOXES.has(box.type))) overwrites.push(freed(box));
      else if (box.type === 'meta') await walkMeta(box);
      else if (box.type === 'moov' || box.type === 'trak' || box.type === 'udta') {
        await walk(box.start, box.end, box.type === 'udta');
      }
    }
  };

  await walk(0, fileBytes, false);
  return overwrites;
}

/** The chunk of the file starting at `offset` with the overwrites that fall in it applied (a copy; the chunk is kept). */
export function withOverwrites(chunk: Uint8Array, offset: number, overwrites: readonly Overwrite[]): Uint8Array {
  const end = offset + chunk.length;
  let out: Uint8Array | undefined;
  for (const { at, end: stop, head } of overwrites) {
    if (stop <= offset || at >= end) continue;
    out ??= chunk.slice();
    const from = Math.max(at, offset);
    const to = Math.min(stop, end);
    out.fill(0, from - offset, to - offset);
    const headEnd = Math.min(at + head.length, to);
    if (headEnd > from) out.set(head.subarray(from - at, headEnd - at), from - offset);
  }
  return out ?? chunk;
}
