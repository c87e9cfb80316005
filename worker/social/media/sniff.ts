/** The media types the service stores; everything else is refused by name. */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const VIDEO_TYPES = ['video/mp4', 'video/quicktime'] as const;
export type PhotoType = (typeof PHOTO_TYPES)[number];
export type VideoType = (typeof VIDEO_TYPES)[number];
export type MediaType = PhotoType | VideoType;
export type MediaKind = 'image' | 'video';

export type Sniffed = { supported: true; type: MediaType; kind: MediaKind } | { supported: false; what: string };

/** Bytes the sniffer needs at most: the longest signature it reads. */
export const SNIFF_BYTES = 16;

const ascii = (bytes: Uint8Array, from: number, length: number) =>
  String.fromCharCode(...bytes.subarray(from, from + length));

const startsWith = (bytes: Uint8Array, signature: number[]) => signature.every((byte, i) => bytes[i] === byte);

// ISO base media brands that are no video we store, by what they are: still images (HEIF, AVIF), raw photos,
// audio, and 3GPP (an MPEG-4 relative we do not serve as MP4).
const REFUSED_BRANDS: Record<string, string> = {
  heic: 'a HEIC image',
  heix: 'a HEIC image',
  hevc: 'a HEIC image sequence',
  hevx: 'a HEIC image sequence',
  mif1: 'a HEIF image',
  mif2: 'a HEIF image',
  miaf: 'a HEIF image',
  MiHE: 'a HEIF image',
  heim: 'a HEIF image',
  heis: 'a HEIF image sequence',
  msf1: 'a HEIF image sequence',
  avif: 'an AVIF image',
  avis: 'an AVIF image sequence',
  'crx ': 'a Canon CR3 raw photo',
  'M4A ': 'an MPEG-4 audio file',
  'M4B ': 'an MPEG-4 audio file',
  'M4P ': 'an MPEG-4 audio file',
  'F4A ': 'an MPEG-4 audio file',
  'F4B ': 'an MPEG-4 audio file',
  '3gp4': 'a 3GPP video',
  '3gp5': 'a 3GPP video',
  '3gp6': 'a 3GPP video',
  '3gp7': 'a 3GPP video',
  '3gg6': 'a 3GPP video',
  '3g2a': 'a 3GPP2 video',
};

// ISO base media brands of MP4 video (QuickTime's own is `qt  `).
const MP4_BRANDS = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'iso7',
  'iso8',
  'iso9',
  'mp41',
  'mp42',
  'avc1',
  'dash',
  'M4V ',
  'M4VH',
  'M4VP',
  'mmp4',
]);

/**
 * MP4 or QuickTime by the ftyp box's major brand, else by its compatible brands (a camera's own major brand,
 * such as Sony's `XAVC`, lists `mp42`); any brand naming a still image, raw photo or audio refuses it.
 */
function byBrands(bytes: Uint8Array): MediaType | string {
  const major = ascii(bytes, 8, 4);
  if (REFUSED_BRANDS[major]) return REFUSED_BRANDS[major]!;
  if (major === 'qt  ') return 'video/quicktime';
  if (MP4_BRANDS.has(major)) return 'video/mp4';
  const size = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0);
  const compatible: string[] = [];
  for (let at = 16; at + 4 <= Math.min(size, bytes.length); at += 4) compatible.push(ascii(bytes, at, 4));
  const refused = compatible.find((brand) => REFUSED_BRANDS[brand]);
  if (refused) return REFUSED_BRANDS[refused]!;
  if (compatible.includes('qt  ')) return 'video/quicktime';
  if (compatible.some((brand) => MP4_BRANDS.has(brand))) return 'video/mp4';
  return `an ISO media file of brand '${major}'`;
}

// QuickTime files from older cameras start with one of these atoms instead of ftyp.
const QUICKTIME_FIRST_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

/** What these bytes are, decided from their own signature and never from what the client said. */
export function sniff(bytes: Uint8Array): Sniffed {
  const ok = (type: MediaType): Sniffed => ({
    supported: true,
    type,
    kind: type.startsWith('image/') ? 'image' : 'video',
  });
  const no = (what: string): Sniffed => ({ supported: false, what });
  if (bytes.length === 0) return no('an empty body');
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return ok('image/jpeg');
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return ok('image/png');
  if (ascii(bytes, 0, 4) === 'RIFF') {
    const form = ascii(bytes, 8, 4);
    if (form === 'WEBP') return ok('image/webp');
    if (form === 'AVI ') return no('an AVI video');
    if (form === 'WAVE') return no('a WAV audio file');
    return no('a RIFF file');
  }
  const box = ascii(bytes, 4, 4);
  if (box === 'ftyp') {
    const found = byBrands(bytes);
    return found === 'video/mp4' || found === 'video/quicktime' ? ok(found) : no(found);
  }
  if (QUICKTIME_FIRST_ATOMS.has(box)) return ok('video/quicktime');
  if (ascii(bytes, 0, 4) === 'GIF8') return no('a GIF image');
  if (ascii(bytes, 0, 2) === 'BM') return no('a BMP image');
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]))
    return no('a TIFF image');
  if (ascii(bytes, 0, 5) === '%PDF-') return no('a PDF document');
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return no('a ZIP archive');
  if (startsWith(bytes, [0x1f, 0x8b])) return no('a gzip archive');
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return no('a WebM or Matroska video');
  if (ascii(bytes, 0, 4) === 'OggS') return no('an Ogg file');
  if (ascii(bytes, 0, 3) === 'ID3' || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0))
    return no('an MP3 audio file');
  const text = ascii(bytes, 0, Math.min(bytes.length, SNIFF_BYTES)).trimStart();
  if (text.startsWith('<')) return no('text markup (HTML, XML or SVG)');
  if (text.startsWith('{') || text.startsWith('[')) return no('JSON text');
  return no('bytes of no known media type');
}
