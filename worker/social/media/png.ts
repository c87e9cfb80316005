import { concatBytes } from '../../platform/bytes';
import { upright } from './jpeg';
import { orientationOnlyTiff, readOrientation, withoutExifPrefix } from './orientation';
import { MalformedImage, type Stripped } from './stripped';

// PNG chunks (PNG 3rd edition): kept are the ones that make up or colour the picture; text, time and EXIF go.

/** Chunks decoding and display need: critical ones, transparency, colour, physical size and animation (APNG). */
const KEPT = new Set([
  'IHDR',
  'PLTE',
  'IDAT',
  'IEND',
  'tRNS',
  'gAMA',
  'cHRM',
  'sRGB',
  'iCCP',
  'sBIT',
  'bKGD',
  'pHYs',
  'cICP',
  'mDCv',
  'cLLI',
  'acTL',
  'fcTL',
  'fdAT',
]);

const SIGNATURE_BYTES = 8;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 as PNG computes it over a chunk's type and data. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/**
 * The PNG without text, time, EXIF or unknown chunks; an eXIf before the image data with an Orientation other than
 * upright becomes one holding only that.
 */
export function stripPng(bytes: Uint8Array): Stripped {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kept: Uint8Array[] = [bytes.subarray(0, SIGNATURE_BYTES)];
  let orientation: number | undefined;
  let size: { width: number; height: number } | undefined;
  let pos = SIGNATURE_BYTES;
  let ended = false;
  let seenIdat = false;
  while (!ended) {
    if (pos + 12 > bytes.length) throw new MalformedImage('the PNG ends before IEND');
    const length = view.getUint32(pos);
    const end = pos + 12 + length;
    if (end > bytes.length) throw new MalformedImage(`a PNG chunk overruns the file at byte ${pos}`);
    const type = String.fromCharCode(...bytes.subarray(pos + 4, pos + 8));
    const data = bytes.subarray(pos + 8, pos + 8 + length);
    if (type === 'IHDR' && length >= 8) size = { width: view.getUint32(pos + 8), height: view.getUint32(pos + 12) };
    // PNG Third Edition puts eXIf before the first IDAT, and browsers ignore one after it: so do we.
    if (type === 'eXIf' && !seenIdat) orientation = readOrientation(withoutExifPrefix(data));
    if (type === 'IDAT' && !seenIdat) {
      seenIdat = true;
      if (orientation !== undefined && orientation !== 1) kept.push(chunk('eXIf', orientationOnlyTiff(orientation)));
    }
    if (KEPT.has(type)) kept.push(bytes.subarray(pos, end));
    ended = type === 'IEND';
    pos = end;
  }
  if (!size) throw new MalformedImage('the PNG has no IHDR');
  return { bytes: concatBytes(kept), ...upright(size, orientation), orientation: orientation ?? 1 };
}
