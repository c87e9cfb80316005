import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { stripJpeg } from '../../../worker/social/media/jpeg';
import { readOrientation, withoutExifPrefix } from '../../../worker/social/media/orientation';
import { stripPng } from '../../../worker/social/media/png';
import { stripMetadata } from '../../../worker/social/media/strip';
import { MalformedImage } from '../../../worker/social/media/stripped';
import { stripWebp } from '../../../worker/social/media/webp';
import {
  animatedWebp,
  gradient,
  holds,
  jpegWithHiddenSegments,
  phoneJpeg,
  phoneWebp,
  SECRET_TEXTS,
  withLateExif,
  withPngMetadata,
} from '../../support/media-fixtures';

/** The JPEG's APPn and COM segments before the first scan, as [marker, payload start text]. */
function jpegMetadataSegments(bytes: Uint8Array): [number, string][] {
  const found: [number, string][] = [];
  for (let pos = 2; pos < bytes.length && bytes[pos + 1] !== 0xda; ) {
    const marker = bytes[pos + 1]!;
    const length = (bytes[pos + 2]! << 8) | bytes[pos + 3]!;
    if ((marker >= 0xe0 && marker <= 0xef) || marker === 0xfe) {
      found.push([marker, String.fromCharCode(...bytes.subarray(pos + 4, pos + 10))]);
    }
    pos += 2 + length;
  }
  return found;
}

function pngChunkTypes(bytes: Uint8Array): string[] {
  const types: string[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let pos = 8; pos < bytes.length; pos += 12 + view.getUint32(pos)) {
    types.push(String.fromCharCode(...bytes.subarray(pos + 4, pos + 8)));
  }
  return types;
}

describe('JPEG metadata stripping', () => {
  it('removes EXIF with GPS, XMP, Photoshop blocks and comments, keeps only the Orientation and the same pixels', () => {
    const original = phoneJpeg(64, 48, 6);
    for (const text of SECRET_TEXTS) expect(holds(original, text)).toBe(true);
    const stripped = stripJpeg(original);
    for (const text of SECRET_TEXTS) expect(holds(stripped.bytes, text)).toBe(false);
    expect(holds(stripped.bytes, 'http://ns.adobe.com/xap')).toBe(false);
    const segments = jpegMetadataSegments(stripped.bytes);
    expect(segments.map(([marker]) => marker)).toEqual([0xe0, 0xe1]);
    const exif = stripped.bytes.subarray(4 + ((stripped.bytes[4]! << 8) | stripped.bytes[5]!) + 4);
    expect(readOrientation(withoutExifPrefix(exif))).toBe(6);
    expect(stripped.orientation).toBe(6);
    // Orientation 6 turns the picture a quarter: upright it is 48 wide.
    expect({ width: stripped.width, height: stripped.height }).toEqual({ width: 48, height: 64 });
    const before = jpeg.decode(original, { useTArray: true });
    const after = jpeg.decode(stripped.bytes, { useTArray: true });
    expect([after.width, after.height]).toEqual([64, 48]);
    expect(Buffer.from(after.data).equals(Buffer.from(before.data))).toBe(true);
  });

  it('adds no EXIF block to an upright photo, and leaves a photo without metadata byte for byte', () => {
    const upright = stripJpeg(phoneJpeg(32, 32, 1));
    expect(jpegMetadataSegments(upright.bytes).map(([marker]) => marker)).toEqual([0xe0]);
    expect(stripJpeg(upright.bytes).bytes).toEqual(upright.bytes);
  });

  it('drops what follows EOI (appended trailers)', () => {
    const original = phoneJpeg(16, 16, 1);
    const trailer = new TextEncoder().encode('SN-0042-SECRET trailer');
    const withTrailer = new Uint8Array([...original, ...trailer]);
    const stripped = stripJpeg(withTrailer);
    expect(holds(stripped.bytes, 'SN-0042-SECRET')).toBe(false);
    expect(stripped.bytes.subarray(-2)).toEqual(new Uint8Array([0xff, 0xd9]));
  });

  it('keeps only the 14-byte JFIF header (no thumbnail), drops JFXX, JPGn and reserved segments, same pixels', () => {
    const original = jpegWithHiddenSegments(16, 16);
    for (const text of ['SN-0042-SECRET', 'PhoneCo', 'GPSLatitude', 'Shot at the spot']) {
      expect(holds(original, text)).toBe(true);
    }
    const stripped = stripJpeg(original);
    for (const text of ['SN-0042-SECRET', 'PhoneCo', 'GPSLatitude', 'Shot at the spot', 'JFXX']) {
      expect(holds(stripped.bytes, text)).toBe(false);
    }
    const markers: number[] = [];
    for (
      let pos = 2;
      stripped.bytes[pos + 1] !== 0xda;
      pos += 2 + ((stripped.bytes[pos + 2]! << 8) | stripped.bytes[pos + 3]!)
    ) {
      markers.push(stripped.bytes[pos + 1]!);
    }
    expect(markers.filter((marker) => marker < 0xc0 || marker >= 0xf0)).toEqual([]);
    // Identifier, version 1.02, dots per inch, 72 × 72, a 0 × 0 thumbnail.
    expect([...stripped.bytes.subarray(2, 20)]).toEqual([
      0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 2, 1, 0, 72, 0, 72, 0, 0,
    ]);
    const plain = jpeg.decode(stripJpeg(phoneJpeg(16, 16, 1)).bytes, { useTArray: true });
    const after = jpeg.decode(stripped.bytes, { useTArray: true });
    expect(Buffer.from(after.data).equals(Buffer.from(plain.data))).toBe(true);
  });

  it('refuses a truncated JPEG', () => {
    const original = phoneJpeg(16, 16, 1);
    expect(() => stripJpeg(original.subarray(0, original.length - 40))).toThrow(MalformedImage);
  });
});

describe('PNG metadata stripping', () => {
  const png = () =>
    new Uint8Array(
      PNG.sync.write(Object.assign(new PNG({ width: 20, height: 10 }), { data: Buffer.from(gradient(20, 10)) })),
    );

  it('removes tEXt, iTXt, tIME and eXIf, keeps an Orientation-only eXIf before IDAT and the same pixels', () => {
    const original = withPngMetadata(png(), 8);
    expect(holds(original, 'Shot at the spot')).toBe(true);
    const stripped = stripPng(original);
    for (const text of SECRET_TEXTS) expect(holds(stripped.bytes, text)).toBe(false);
    expect(pngChunkTypes(stripped.bytes)).toEqual(['IHDR', 'eXIf', 'IDAT', 'IEND']);
    expect({ width: stripped.width, height: stripped.height, orientation: stripped.orientation }).toEqual({
      width: 10,
      height: 20,
      orientation: 8,
    });
    const decoded = PNG.sync.read(Buffer.from(stripped.bytes));
    expect(decoded.data.equals(PNG.sync.read(Buffer.from(original)).data)).toBe(true);
  });

  it('ignores an eXIf after the image data, as browsers do: the size reported is the size displayed', () => {
    const stripped = stripPng(withLateExif(png(), 6));
    expect(pngChunkTypes(stripped.bytes)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(holds(stripped.bytes, 'GPSLatitude')).toBe(false);
    expect({ width: stripped.width, height: stripped.height, orientation: stripped.orientation }).toEqual({
      width: 20,
      height: 10,
      orientation: 1,
    });
  });

  it('keeps a PNG without metadata byte for byte', () => {
    const plain = png();
    expect(stripPng(plain).bytes).toEqual(plain);
  });
});

describe('WebP metadata stripping', () => {
  it('removes EXIF and XMP chunks, fixes the VP8X flags and the RIFF size, keeps the bitstream and the Orientation', () => {
    const { bytes, bitstream } = phoneWebp(40, 30, 3);
    const stripped = stripWebp(bytes);
    for (const text of SECRET_TEXTS) expect(holds(stripped.bytes, text)).toBe(false);
    const view = new DataView(stripped.bytes.buffer, stripped.bytes.byteOffset);
    expect(view.getUint32(4, true)).toBe(stripped.bytes.length - 8);
    expect(stripped.bytes[20]! & 0x0c).toBe(0x08); // EXIF flag kept for the orientation, XMP flag gone
    expect(holds(stripped.bytes, bitstream)).toBe(true);
    expect(stripped).toMatchObject({ width: 40, height: 30, orientation: 3 });
    const upright = stripWebp(phoneWebp(40, 30, 1).bytes);
    expect(upright.bytes[20]! & 0x0c).toBe(0);
    expect(holds(upright.bytes, 'EXIF')).toBe(false);
  });
});

/** A RIFF body's chunks as [fourcc, data], from `from` to `to`. */
function riffChunks(bytes: Uint8Array, from: number, to: number): [string, Uint8Array][] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: [string, Uint8Array][] = [];
  for (let pos = from; pos + 8 <= to; ) {
    const length = view.getUint32(pos + 4, true);
    chunks.push([String.fromCharCode(...bytes.subarray(pos, pos + 4)), bytes.subarray(pos + 8, pos + 8 + length)]);
    pos += 8 + length + (length & 1);
  }
  return chunks;
}

describe('animated WebP metadata stripping', () => {
  it("removes an EXIF chunk and unknown chunks inside an ANMF frame, fixing the frame's size; both frames keep their bitstream", () => {
    const { bytes, bitstream } = animatedWebp(24, 16);
    const stripped = stripWebp(bytes);
    for (const text of SECRET_TEXTS) expect(holds(stripped.bytes, text), text).toBe(false);
    expect(holds(stripped.bytes, 'EXIF')).toBe(false);
    const top = riffChunks(stripped.bytes, 12, stripped.bytes.length);
    expect(top.map(([fourcc]) => fourcc)).toEqual(['VP8X', 'ANIM', 'ANMF', 'ANMF']);
    expect(top[0]![1][0]! & 0x0a).toBe(0x02); // still animated, no EXIF flag
    for (const [, frame] of top.slice(2)) {
      expect(frame.subarray(0, 16)).toEqual(bytes.subarray(12 + 18 + 14 + 8, 12 + 18 + 14 + 8 + 16));
      const inner = riffChunks(frame, 16, frame.length);
      expect(inner.map(([fourcc]) => fourcc)).toEqual(['VP8L']);
      expect(inner[0]![1]).toEqual(bitstream);
    }
    expect(new DataView(stripped.bytes.buffer, stripped.bytes.byteOffset).getUint32(4, true)).toBe(
      stripped.bytes.length - 8,
    );
    expect(stripped).toMatchObject({ width: 24, height: 16, orientation: 1 });
  });
});

describe('stripMetadata', () => {
  it('dispatches on the sniffed type', () => {
    expect(stripMetadata('image/jpeg', phoneJpeg(8, 8, 1)).width).toBe(8);
    expect(stripMetadata('image/webp', phoneWebp(9, 7, 1).bytes).height).toBe(7);
  });
});
