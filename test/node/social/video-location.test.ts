import { describe, expect, it } from 'vitest';
import { blockReader, readMovie } from '../../../worker/social/media/mp4';
import { locationOverwrites, type Overwrite, withOverwrites } from '../../../worker/social/media/mp4-location';
import {
  holds,
  LOCI_COORDINATES,
  phoneVideo,
  SAMPLE_MARK,
  VIDEO_COORDINATES,
  type VideoLocationStyle,
  video,
} from '../../support/media-fixtures';

const readFrom = (bytes: Uint8Array) => async (offset: number, length: number) =>
  bytes.subarray(offset, Math.min(bytes.length, offset + length));

/** The file with the overwrites applied as the bucket rewrite applies them: chunk by chunk, here of `chunkBytes`. */
function applied(bytes: Uint8Array, overwrites: Overwrite[], chunkBytes: number): Uint8Array {
  const out = new Uint8Array(bytes.length);
  for (let at = 0; at < bytes.length; at += chunkBytes) {
    out.set(withOverwrites(bytes.subarray(at, at + chunkBytes), at, overwrites), at);
  }
  return out;
}

/** The top-level boxes as [type, offset, size]. */
function topLevel(bytes: Uint8Array): [string, number, number][] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxes: [string, number, number][] = [];
  for (let at = 0; at + 8 <= bytes.length; at += view.getUint32(at)) {
    boxes.push([String.fromCharCode(...bytes.subarray(at + 4, at + 8)), at, view.getUint32(at)]);
  }
  return boxes;
}

/** The payload of the top-level movie box. */
function moovOf(bytes: Uint8Array): Uint8Array {
  const [, at, size] = topLevel(bytes).find(([type]) => type === 'moov')!;
  return bytes.subarray(at + 8, at + size);
}

/** The `stco` box's one chunk offset. */
function chunkOffset(bytes: Uint8Array): number {
  for (let i = 0; i + 16 <= bytes.length; i++) {
    if (String.fromCharCode(...bytes.subarray(i, i + 4)) === 'stco') {
      return new DataView(bytes.buffer, bytes.byteOffset).getUint32(i + 12);
    }
  }
  throw new Error('no stco');
}

const STYLES: VideoLocationStyle[] = ['iphone-keys', 'android-xyz', 'loci', 'xmp-uuid'];

describe('video location stripping', () => {
  it.each(STYLES.flatMap((style) => [true, false].map((moovLast) => [style, moovLast] as const)))(
    'blanks the location of a %s video (movie box last: %s) in place: same size, same boxes, offsets still right',
    async (style, moovLast) => {
      const { bytes, sampleOffset } = phoneVideo(style, { moovLast });
      expect(holds(bytes, VIDEO_COORDINATES) || holds(bytes, LOCI_COORDINATES)).toBe(true);
      const overwrites = await locationOverwrites(readFrom(bytes), bytes.length);
      expect(overwrites.length).toBeGreaterThan(0);
      for (const chunkBytes of [bytes.length, 1000, 7]) {
        const stripped = applied(bytes, overwrites, chunkBytes);
        expect(stripped.length).toBe(bytes.length);
        for (const secret of [VIDEO_COORDINATES, '+52.5163', LOCI_COORDINATES, 'GPSLatitude', 'Shot at the spot']) {
          expect(holds(stripped, secret), String(secret)).toBe(false);
        }
        expect(topLevel(stripped)).toEqual(
          topLevel(bytes).map(([type, at, size]) => [type === 'uuid' ? 'free' : type, at, size]),
        );
        // The sample table still points at the samples, and the movie still reads the same.
        expect(chunkOffset(stripped)).toBe(sampleOffset);
        expect(String.fromCharCode(...stripped.subarray(sampleOffset, sampleOffset + SAMPLE_MARK.length))).toBe(
          SAMPLE_MARK,
        );
        expect(readMovie(moovOf(stripped))).toEqual({ durationMs: 9250, width: 1920, height: 1080 });
        // Only the blanked boxes changed: each is now a free box.
        for (let i = 0; i < bytes.length; i++) {
          if (stripped[i] !== bytes[i]) expect(overwrites.some(({ at, end }) => i >= at && i < end)).toBe(true);
        }
        for (const { at } of overwrites) expect(String.fromCharCode(...stripped.subarray(at, at + 4))).toBe('free');
      }
    },
  );

  it("keeps an iPhone's other keys' values, the make and the creation date", async () => {
    const { bytes } = phoneVideo('iphone-keys');
    const stripped = applied(bytes, await locationOverwrites(readFrom(bytes), bytes.length), bytes.length);
    expect(holds(stripped, 'Apple')).toBe(true);
    expect(holds(stripped, '2024-05-01T10:00:00+0200')).toBe(true);
    expect(holds(stripped, '14.285')).toBe(false);
  });

  it('finds nothing to blank in a video without a location, and leaves chunks without an overwrite as they are', async () => {
    const bytes = video({ totalBytes: 4096 });
    expect(await locationOverwrites(readFrom(bytes), bytes.length)).toEqual([]);
    const chunk = bytes.subarray(0, 100);
    expect(withOverwrites(chunk, 0, [{ at: 200, end: 300, head: new Uint8Array([1]) }])).toBe(chunk);
  });
});

describe('block reader', () => {
  it('answers any range as the file holds it, reading each block once while it is kept', async () => {
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i & 0xff);
    const reads: [number, number][] = [];
    const read = blockReader(
      async (offset, length) => {
        reads.push([offset, length]);
        return bytes.subarray(offset, Math.min(bytes.length, offset + length));
      },
      64,
      8,
    );
    for (const [offset, length] of [
      [0, 16],
      [10, 100],
      [60, 8],
      [990, 32],
      [100, 300],
    ] as const) {
      expect(await read(offset, length)).toEqual(bytes.subarray(offset, Math.min(bytes.length, offset + length)));
    }
    expect(reads.filter(([offset]) => offset === 0)).toHaveLength(1);
    expect(reads).toContainEqual([100, 300]);
  });
});
