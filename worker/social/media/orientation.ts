// The EXIF Orientation tag, the one piece of metadata kept: without it a phone photo displays sideways.

const ORIENTATION_TAG = 0x0112;
const SHORT = 3;

/** The Orientation (1–8) in a TIFF structure (an EXIF block without its `Exif\0\0` prefix); undefined when absent or malformed. */
export function readOrientation(tiff: Uint8Array): number | undefined {
  if (tiff.length < 8) return undefined;
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const order = String.fromCharCode(tiff[0]!, tiff[1]!);
  if (order !== 'II' && order !== 'MM') return undefined;
  const little = order === 'II';
  if (view.getUint16(2, little) !== 42) return undefined;
  const ifd = view.getUint32(4, little);
  if (ifd + 2 > tiff.length) return undefined;
  const count = view.getUint16(ifd, little);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) return undefined;
    if (view.getUint16(entry, little) !== ORIENTATION_TAG) continue;
    if (view.getUint16(entry + 2, little) !== SHORT) return undefined;
    const value = view.getUint16(entry + 8, little);
    return value >= 1 && value <= 8 ? value : undefined;
  }
  return undefined;
}

/** A TIFF structure holding one IFD with only the Orientation tag (big-endian, 26 bytes). */
export function orientationOnlyTiff(orientation: number): Uint8Array {
  const tiff = new Uint8Array(26);
  const view = new DataView(tiff.buffer);
  tiff.set([0x4d, 0x4d, 0x00, 0x2a]);
  view.setUint32(4, 8); // IFD0 follows the header
  view.setUint16(8, 1); // one entry
  view.setUint16(10, ORIENTATION_TAG);
  view.setUint16(12, SHORT);
  view.setUint32(14, 1);
  view.setUint16(18, orientation);
  view.setUint32(22, 0); // no next IFD
  return tiff;
}

/** Orientations 5–8 turn the picture a quarter: the upright width is the stored height. */
export const swapsSides = (orientation: number | undefined) => orientation !== undefined && orientation >= 5;

export const EXIF_PREFIX = new Uint8Array([0x45, 0x78, 0x69, 0x66, 0x00, 0x00]);

/** `Exif\0\0` + TIFF, as a JPEG APP1 segment and some WebP writers carry it; the TIFF alone otherwise. */
export function withoutExifPrefix(block: Uint8Array): Uint8Array {
  return EXIF_PREFIX.every((byte, i) => block[i] === byte) ? block.subarray(EXIF_PREFIX.length) : block;
}
