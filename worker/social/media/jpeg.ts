import { concatBytes } from '../../platform/bytes';
import { EXIF_PREFIX, orientationOnlyTiff, readOrientation, swapsSides, withoutExifPrefix } from './orientation';
import { MalformedImage, type Stripped } from './stripped';

// JPEG segments (ITU T.81, JFIF, EXIF): metadata lives in APPn, JPGn and COM segments before the scan data.

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

/** Tables decoding reads: DHT, DAC, DQT, DNL, DRI, DHP, EXP. */
const TABLES = new Set([0xc4, 0xcc, 0xdb, 0xdc, 0xdd, 0xde, 0xdf]);

/** JFIF's header up to its thumbnail size (T.871): identifier, version, units and densities. */
const JFIF_HEADER_BYTES = 12;
/** Adobe's APP14 whole: identifier, version, two flag words and the colour transform. */
const ADOBE_BYTES = 12;

/**
 * The segment as stored, or undefined when it goes. Kept are frames, tables and what decoding needs from the APPn
 * range: JFIF (APP0) cut to its 14-byte header with no thumbnail, the ICC colour profile (APP2) and Adobe's colour
 * transform (APP14) cut to its 12 bytes. Everything else can only carry data: the other APPn (EXIF, XMP, Photoshop
 * IRB, MPF, JFXX thumbnails, maker data), the application-reserved JPGn (0xF0–0xFD), comments and reserved markers.
 */
function storedSegment(marker: number, payload: Uint8Array, whole: Uint8Array): Uint8Array | undefined {
  if (isFrame(marker) || TABLES.has(marker)) return whole;
  if (marker === APP0 && ascii(payload, 0, 5) === 'JFIF\0' && payload.length >= JFIF_HEADER_BYTES) {
    return segment(APP0, new Uint8Array([...payload.subarray(0, JFIF_HEADER_BYTES), 0, 0]));
  }
  if (marker === APP2 && ascii(payload, 0, 12) === 'ICC_PROFILE\0') return whole;
  if (marker === APP14 && ascii(payload, 0, 5) === 'Adobe' && payload.length >= ADOBE_BYTES) {
    return payload.length === ADOBE_BYTES ? whole : segment(APP14, payload.subarray(0, ADOBE_BYTES));
  }
  return undefined;
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
  const parts: Uint8Array[] = [bytes.subarray(0, 2)];
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
      parts.push(bytes.subarray(pos, pos + 2));
      break;
    }
    if (standalone(marker)) {
      parts.push(bytes.subarray(pos, pos + 2));
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
      parts.push(bytes.subarray(pos, dataEnd));
      pos = dataEnd;
      continue;
    }
    const stored = storedSegment(marker, payload, bytes.subarray(pos, end));
    if (stored) {
      parts.push(stored);
      if (marker === APP0 && parts.length === 2) afterJfif = 2;
    }
    pos = end;
  }
  if (!size) throw new MalformedImage('the JPEG has no frame header (SOFn)');
  if (orientation !== undefined && orientation !== 1) {
    // EXIF's APP1 follows SOI, or JFIF's APP0 where there is one.
    const exif = new Uint8Array([...EXIF_PREFIX, ...orientationOnlyTiff(orientation)]);
    parts.splice(afterJfif, 0, segment(APP1, exif));
  }
  return { bytes: concatBytes(parts), ...upright(size, orientation), orientation: orientation ?? 1 };
}

export function upright(size: { width: number; height: number }, orientation: number | undefined) {
  return swapsSides(orientation) ? { width: size.height, height: size.width } : size;
}
