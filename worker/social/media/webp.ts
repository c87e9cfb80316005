import { concatBytes } from '../../platform/bytes';
import { upright } from './jpeg';
import { orientationOnlyTiff, readOrientation, withoutExifPrefix } from './orientation';
import { MalformedImage, type Stripped } from './stripped';

// WebP's RIFF container (RFC 9649): EXIF and XMP chunks go, in animation frames too; VP8X's flags and the RIFF size
// are fixed to match.

/** Chunks that make up or colour the picture. */
const KEPT = new Set(['VP8 ', 'VP8L', 'VP8X', 'ALPH', 'ANIM', 'ANMF', 'ICCP']);
/** What an animation frame's data may hold and a decoder reads: its alpha and its bitstream; anything after goes. */
const FRAME_KEPT = new Set(['ALPH', 'VP8 ', 'VP8L']);
/** An ANMF frame's own header (position, size, duration, flags) before its chunks. */
const FRAME_HEADER_BYTES = 16;
const EXIF_FLAG = 0x08;
const XMP_FLAG = 0x04;

function chunk(fourcc: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + data.length + (data.length & 1));
  for (let i = 0; i < 4; i++) out[i] = fourcc.charCodeAt(i);
  new DataView(out.buffer).setUint32(4, data.length, true);
  out.set(data, 8);
  return out;
}

/**
 * An ANMF frame with only its alpha and bitstream chunks: the format lets a frame carry unknown chunks after them,
 * and an editor may copy a photo's EXIF into each frame.
 */
function strippedFrame(data: Uint8Array, at: number): Uint8Array {
  if (data.length < FRAME_HEADER_BYTES) throw new MalformedImage(`a WebP animation frame is too short at byte ${at}`);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const kept: Uint8Array[] = [data.subarray(0, FRAME_HEADER_BYTES)];
  for (let pos = FRAME_HEADER_BYTES; pos + 8 <= data.length; ) {
    const fourcc = String.fromCharCode(...data.subarray(pos, pos + 4));
    const length = view.getUint32(pos + 4, true);
    const end = pos + 8 + length + (length & 1);
    if (pos + 8 + length > data.length)
      throw new MalformedImage(`a WebP frame's chunk overruns it at byte ${at + pos}`);
    if (FRAME_KEPT.has(fourcc)) kept.push(data.subarray(pos, Math.min(end, data.length)));
    pos = end;
  }
  return chunk('ANMF', concatBytes(kept));
}

const uint24 = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);

/** The canvas size from VP8X, or the bitstream's own header for a simple file. */
function sizeOf(fourcc: string, data: Uint8Array): { width: number; height: number } | undefined {
  if (fourcc === 'VP8X' && data.length >= 10) return { width: uint24(data, 4) + 1, height: uint24(data, 7) + 1 };
  if (fourcc === 'VP8 ' && data.length >= 10 && data[3] === 0x9d && data[4] === 0x01 && data[5] === 0x2a) {
    return { width: (data[6]! | (data[7]! << 8)) & 0x3fff, height: (data[8]! | (data[9]! << 8)) & 0x3fff };
  }
  if (fourcc === 'VP8L' && data.length >= 5 && data[0] === 0x2f) {
    const bits = data[1]! | (data[2]! << 8) | (data[3]! << 16) | (data[4]! << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  return undefined;
}

/** The WebP without EXIF, XMP or unknown chunks; an Orientation other than upright stays as an EXIF chunk holding only that. */
export function stripWebp(bytes: Uint8Array): Stripped {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12) throw new MalformedImage('the WebP ends inside its RIFF header');
  const riffEnd = Math.min(bytes.length, 8 + view.getUint32(4, true));
  const kept: Uint8Array[] = [];
  let orientation: number | undefined;
  let size: { width: number; height: number } | undefined;
  let vp8x: Uint8Array | undefined;
  let pos = 12;
  while (pos + 8 <= riffEnd) {
    const fourcc = String.fromCharCode(...bytes.subarray(pos, pos + 4));
    const length = view.getUint32(pos + 4, true);
    const end = pos + 8 + length + (length & 1);
    if (pos + 8 + length > riffEnd) throw new MalformedImage(`a WebP chunk overruns the file at byte ${pos}`);
    const data = bytes.subarray(pos + 8, pos + 8 + length);
    size ??= sizeOf(fourcc, data);
    if (fourcc === 'EXIF') orientation = readOrientation(withoutExifPrefix(data));
    if (fourcc === 'VP8X') {
      vp8x = bytes.slice(pos, Math.min(end, riffEnd));
      kept.push(vp8x);
    } else if (fourcc === 'ANMF') kept.push(strippedFrame(data, pos + 8));
    else if (KEPT.has(fourcc)) kept.push(bytes.subarray(pos, Math.min(end, riffEnd)));
    pos = end;
  }
  if (!size) throw new MalformedImage('the WebP has no image chunk');
  const keepsOrientation = orientation !== undefined && orientation !== 1;
  if (keepsOrientation && vp8x) kept.push(chunk('EXIF', orientationOnlyTiff(orientation!)));
  if (vp8x) vp8x[8] = (vp8x[8]! & ~(EXIF_FLAG | XMP_FLAG)) | (keepsOrientation ? EXIF_FLAG : 0);
  const body = concatBytes(kept);
  const header = new Uint8Array(12);
  header.set(bytes.subarray(0, 4));
  new DataView(header.buffer).setUint32(4, body.length + 4, true);
  header.set(bytes.subarray(8, 12), 8);
  return { bytes: concatBytes([header, body]), ...upright(size, orientation), orientation: orientation ?? 1 };
}
