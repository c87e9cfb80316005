import { concatBytes } from '../../platform/bytes';

// ISO base media / QuickTime boxes (ISO/IEC 14496-12): the movie header gives the duration, a track header the size.

export interface VideoFacts {
  durationMs?: number;
  width?: number;
  height?: number;
}

/** Reads `length` bytes at `offset` of the stored file (fewer at its end). */
export type ReadAt = (offset: number, length: number) => Promise<Uint8Array>;

const CONTAINERS = new Set(['trak', 'mdia', 'minf', 'stbl', 'edts', 'udta']);

export interface Box {
  type: string;
  /** Where the box's payload starts and the box ends, in the buffer or file it was read from. */
  start: number;
  end: number;
}

/** The box whose header starts at `at` of `bytes`, ending no later than `limit` when its size says "to the end". */
export function boxAt(bytes: Uint8Array, at: number, limit: number): Box | undefined {
  if (at + 8 > bytes.length) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let size = view.getUint32(at);
  const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
  let header = 8;
  if (size === 1) {
    if (at + 16 > bytes.length) return undefined;
    size = Number(view.getBigUint64(at + 8));
    header = 16;
  } else if (size === 0) size = limit - at;
  if (size < header) return undefined;
  return { type, start: at + header, end: at + size };
}

/** Duration and picture size from a movie box's payload (the bytes inside `moov`). */
export function readMovie(moov: Uint8Array): VideoFacts {
  const facts: VideoFacts = {};
  const view = new DataView(moov.buffer, moov.byteOffset, moov.byteLength);
  const walk = (from: number, to: number) => {
    for (let at = from; at < to; ) {
      const box = boxAt(moov, at, to);
      if (!box || box.end > to || box.end <= at) return;
      const version = moov[box.start];
      if (box.type === 'mvhd' && facts.durationMs === undefined) {
        const [scaleAt, durationAt] =
          version === 1 ? [box.start + 20, box.start + 24] : [box.start + 12, box.start + 16];
        if (durationAt + (version === 1 ? 8 : 4) <= box.end) {
          const timescale = view.getUint32(scaleAt);
          const duration = version === 1 ? Number(view.getBigUint64(durationAt)) : view.getUint32(durationAt);
          if (timescale > 0) facts.durationMs = Math.round((duration / timescale) * 1000);
        }
      } else if (box.type === 'tkhd' && facts.width === undefined) {
        const sizeAt = box.start + (version === 1 ? 88 : 76);
        if (sizeAt + 8 <= box.end) {
          const width = view.getUint32(sizeAt) / 65536;
          const height = view.getUint32(sizeAt + 4) / 65536;
          // An audio track's header says 0 × 0: the picture's size is the first track with one.
          if (width > 0 && height > 0) Object.assign(facts, { width: Math.round(width), height: Math.round(height) });
        }
      } else if (CONTAINERS.has(box.type)) walk(box.start, box.end);
      at = box.end;
    }
  };
  walk(0, moov.length);
  return facts;
}

/**
 * Finds the top-level movie box of a stored file (before or after the media data; cameras often write it last)
 * by reading box headers only, and reads at most `moovMaxBytes` of it.
 */
export async function readVideoFacts(read: ReadAt, fileBytes: number, moovMaxBytes: number): Promise<VideoFacts> {
  for (let at = 0, boxes = 0; at + 8 <= fileBytes && boxes < 64; boxes++) {
    const header = await read(at, 16);
    const box = boxAt(header, 0, fileBytes - at);
    if (!box) return {};
    if (box.type === 'moov') {
      const length = Math.min(box.end - box.start, moovMaxBytes);
      return readMovie(await read(at + box.start, length));
    }
    at += box.end;
  }
  return {};
}

/**
 * A reader that fetches whole blocks of `blockBytes` and keeps the last `keep`: a box walk reads many small headers
 * close together, each of which would otherwise be a read of the bucket. Reads wider than half the blocks kept go
 * straight through.
 */
export function blockReader(read: ReadAt, blockBytes: number, keep: number): ReadAt {
  const blocks = new Map<number, Promise<Uint8Array>>();
  const block = (n: number) => {
    let found = blocks.get(n);
    if (!found) {
      found = read(n * blockBytes, blockBytes);
      blocks.set(n, found);
      if (blocks.size > keep) blocks.delete(blocks.keys().next().value!);
    }
    return found;
  };
  return async (offset, length) => {
    const first = Math.floor(offset / blockBytes);
    const last = Math.floor((offset + Math.max(length, 1) - 1) / blockBytes);
    if (last - first + 1 > keep / 2) return read(offset, length);
    const parts = await Promise.all(Array.from({ length: last - first + 1 }, (_, i) => block(first + i)));
    const joined = parts.length === 1 ? parts[0]! : concatBytes(parts);
    const from = offset - first * blockBytes;
    return joined.subarray(from, from + length);
  };
}
