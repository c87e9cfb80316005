import { concatBytes } from '../../platform/bytes';
import { EXIF_PREFIX, orientationOnlyTiff, readOrientation, swapsSides, withoutExifPrefix } from './orientation';
import { MalformedImage, type Stripped } from './stripped';

// JPEG segments (ITU T.81, JFIF, EXIF): metadata lives in APPn and COM segments before the scan data.

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP0 = 0xe0;
const APP1 = 0xe1;
const APP2 = 0xe2;
const APP14 = 0xee;

const ascii = (bytes: Uint8Array, from: number, length: number) =>
  String.fromCharCode(...bytes.subarray(from, Math.min(bytes.length, from + length)));

/** SOFn markers carry the frame size; C4 (DHT), C8 (reserved) and CC (DAC) share the range but are not frames. */
const isFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** Markers with no length field. */
const standalone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);

/**
 * Which APPn segments decoding needs: JFIF (APP0), the ICC colour profile (APP2) and Adobe's colour transform
 * (APP14). Everything else there (EXIF, XMP, Photoshop IRB, MPF, maker data) and every comment goes.
 */
function keeps(marker: number, payload: Uint8Array): boolean {
  if (marker === APP0) return ascii(payload, 0, 5) === 'JFIF\0';
  if (marker === APP2) return ascii(payload, 0, 12) === 'ICC_PROFILE\0';
  if (marker === APP14) return ascii(payload, 0, 5) === 'Adobe';
  if (marker >= APP0 && marker <= 0xef) return false;
  return marker !== 0xfe; // COM
}

function segment(marker: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + payload.length);
  out.set([0xff, marker, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]);
  out.set(payload, 4);
  return out;
}

/** The end of the entropy-coded data that starts at `from`: the next marker that is neither a stuffed 0xFF nor a restart. */
function scanEnd(bytes: Uint8Array, from: number): number {
  for (let i = from; i < bytes.length - 1; i++) {
    if (bytes[i] !== 0xff) continue;
    const next = bytes[i + 1]!;
    if (next === 0x00 || next === 0xff || (next >= 0xd0 && next <= 0xd7)) continue;
    return i;
  }
  throw new MalformedImage('the JPEG ends inside its scan data (no EOI)');
}

/**
 * The JPEG without its metadata: the frame, tables and scans byte for byte, a minimal EXIF block holding only
 * the Orientation when the photo had one other than upright, nothing after EOI. Also reads the frame size.
 */
export function stripJpeg(bytes: Uint8Array): Stripped {
  if (bytes[0] !== 0xff || bytes[1] !== SOI) throw new MalformedImage('not a JPEG (no SOI)');
  const kept: Uint8Array[] = [bytes.subarray(0, 2)];
  let orientation: number | undefined;
  let size: { width: number; height: number } | undefined;
  let afterJfif = 1;
  let pos = 2;
  for (;;) {
    if (pos + 1 >= bytes.length) throw new MalformedImage('the JPEG ends before EOI');
    if (bytes[pos] !== 0xff) throw new MalformedImage(`a JPEG segment does not start with a marker at byte ${pos}`);
    const marker = bytes[pos + 1]!;
    if (marker === 0xff) {
      pos += 1; // fill byte
      continue;
    }
    if (marker === EOI) {
      kept.push(bytes.subarray(pos, pos + 2));
      break;
    }
    if (standalone(marker)) {
      kept.push(bytes.subarray(pos, pos + 2));
      pos += 2;
      continue;
    }
    if (pos + 4 > bytes.length) throw new MalformedImage('the JPEG ends inside a segment header');
    const length = (bytes[pos + 2]! << 8) | bytes[pos + 3]!;
    const end = pos + 2 + length;
    if (length < 2 || end > bytes.length) throw new MalformedImage(`a JPEG segment overruns the file at byte ${pos}`);
    const payload = bytes.subarray(pos + 4, end);
    if (marker === APP1 && orientation === undefined && ascii(payload, 0, 6) === 'Exif\0\0') {
      orientation = readOrientation(withoutExifPrefix(payload));
    }
    if (isFrame(marker) && !size && payload.length >= 5) {
      size = { height: (payload[1]! << 8) | payload[2]!, width: (payload[3]! << 8) | payload[4]! };
    }
    if (marker === SOS) {
      const dataEnd = scanEnd(bytes, end);
      kept.push(bytes.subarray(pos, dataEnd));
      pos = dataEnd;
      continue;
    }
    if (keeps(marker, payload)) {
      kept.push(bytes.subarray(pos, end));
      if (marker === APP0 && kept.length === 2) afterJfif = 2;
    }
    pos = end;
  }
  if (!size) throw new MalformedImage('the JPEG has no frame header (SOFn)');
  if (orientation !== undefined && orientation !== 1) {
    // EXIF's APP1 follows SOI, or JFIF's APP0 where there is one.
    const exif = new Uint8Array([...EXIF_PREFIX, ...orientationOnlyTiff(orientation)]);
    kept.splice(afterJfif, 0, segment(APP1, exif));
  }
  return { bytes: concatBytes(kept), ...upright(size, orientation), orientation: orientation ?? 1 };
}

export function upright(size: { width: number; height: number }, orientation: number | undefined) {
  return swapsSides(orientation) ? { width: size.height, height: size.width } : size;
}
