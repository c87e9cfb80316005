import jpeg from 'jpeg-js';
import { concatBytes } from '../../worker/platform/bytes';
import { crc32 } from '../../worker/social/media/png';

// Photos and videos as phones make them, with the metadata a rider would not want to hand out.

const enc = new TextEncoder();
export const SECRET_TEXTS = ['PhoneCo', 'SN-0042-SECRET', 'GPSLatitude', '2024:05:01 10:00:00', 'Shot at the spot'];

/** Whether `text` occurs anywhere in the bytes. */
export function holds(bytes: Uint8Array, text: string | Uint8Array): boolean {
  const needle = typeof text === 'string' ? enc.encode(text) : text;
  outer: for (let i = 0; i + needle.length <= bytes.length; i++) {
    for (let j = 0; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * A little-endian TIFF as a phone's EXIF block: Orientation, Make, a serial and a date in IFD0, a GPS IFD with
 * latitude and longitude.
 */
export function phoneExifTiff(orientation = 6): Uint8Array {
  const make = enc.encode('PhoneCo\0');
  const serial = enc.encode('SN-0042-SECRET\0');
  const date = enc.encode('2024:05:01 10:00:00\0');
  const ifd0Entries = 5;
  const ifd0 = 8;
  const gpsIfd = ifd0 + 2 + ifd0Entries * 12 + 4;
  const gpsEntries = 2;
  const data = gpsIfd + 2 + gpsEntries * 12 + 4;
  const makeAt = data;
  const serialAt = makeAt + make.length;
  const dateAt = serialAt + serial.length;
  const latAt = dateAt + date.length;
  const total = latAt + 24;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  out.set([0x49, 0x49, 0x2a, 0x00]);
  view.setUint32(4, ifd0, true);
  const entry = (at: number, tag: number, type: number, count: number, value: number) => {
    view.setUint16(at, tag, true);
    view.setUint16(at + 2, type, true);
    view.setUint32(at + 4, count, true);
    if (type === 3 && count === 1) view.setUint16(at + 8, value, true);
    else view.setUint32(at + 8, value, true);
  };
  view.setUint16(ifd0, ifd0Entries, true);
  entry(ifd0 + 2, 0x010f, 2, make.length, makeAt);
  entry(ifd0 + 14, 0x0112, 3, 1, orientation);
  entry(ifd0 + 26, 0x0132, 2, date.length, dateAt);
  entry(ifd0 + 38, 0x8825, 4, 1, gpsIfd);
  entry(ifd0 + 50, 0xa431, 2, serial.length, serialAt);
  view.setUint16(gpsIfd, gpsEntries, true);
  entry(gpsIfd + 2, 0x0001, 2, 2, 0x4e); // GPSLatitudeRef "N"
  entry(gpsIfd + 14, 0x0002, 5, 3, latAt); // GPSLatitude
  out.set(make, makeAt);
  out.set(serial, serialAt);
  out.set(date, dateAt);
  for (const [i, value] of [52, 1, 31, 1, 4012, 100].entries()) view.setUint32(latAt + i * 4, value, true);
  return out;
}

const XMP = enc.encode(
  'http://ns.adobe.com/xap/1.0/\0<x:xmpmeta><rdf:Description exif:GPSLatitude="52,31.40N" tiff:Make="PhoneCo"/></x:xmpmeta>',
);

function jpegSegment(marker: number, payload: Uint8Array): Uint8Array {
  return concatBytes([new Uint8Array([0xff, marker, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]), payload]);
}

/** A small picture with a gradient, so a changed pixel shows. */
export function gradient(width: number, height: number): Uint8Array {
  const pixels = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      pixels.set([(x * 255) / width, (y * 255) / height, ((x + y) * 127) / (width + height), 255], i);
    }
  }
  return pixels;
}

/** A baseline JPEG carrying EXIF with GPS, XMP, a Photoshop block and a comment, as a phone's camera writes it. */
export function phoneJpeg(width = 64, height = 48, orientation = 6, pixels = gradient(width, height)): Uint8Array {
  const plain = new Uint8Array(jpeg.encode({ width, height, data: pixels }, 90).data);
  const exif = jpegSegment(0xe1, concatBytes([enc.encode('Exif\0\0'), phoneExifTiff(orientation)]));
  const xmp = jpegSegment(0xe1, XMP);
  const photoshop = jpegSegment(0xed, enc.encode('Photoshop 3.0\x008BIM Shot at the spot'));
  const comment = jpegSegment(0xfe, enc.encode('Shot at the spot by PhoneCo'));
  // After SOI and the encoder's JFIF APP0, as cameras order them.
  const app0End = 4 + ((plain[4]! << 8) | plain[5]!);
  return concatBytes([
    plain.subarray(0, app0End),
    exif,
    xmp,
    photoshop,
    plain.subarray(app0End, plain.length - 2),
    comment,
    plain.subarray(plain.length - 2),
  ]);
}

export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(enc.encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A PNG (as given, e.g. from pngjs) with an EXIF chunk put in after its image data, just before IEND. */
export function withLateExif(png: Uint8Array, orientation = 6): Uint8Array {
  return concatBytes([
    png.subarray(0, png.length - 12),
    pngChunk('eXIf', phoneExifTiff(orientation)),
    png.subarray(-12),
  ]);
}

/** A PNG (as given, e.g. from pngjs) with text, time and EXIF chunks put in before its first IDAT. */
export function withPngMetadata(png: Uint8Array, orientation = 8): Uint8Array {
  const ihdrEnd = 8 + 12 + 13;
  return concatBytes([
    png.subarray(0, ihdrEnd),
    pngChunk('tEXt', enc.encode('Comment\0Shot at the spot')),
    pngChunk('iTXt', enc.encode('XML:com.adobe.xmp\0\0\0\0\0<x:xmpmeta exif:GPSLatitude="52"/>')),
    pngChunk('tIME', new Uint8Array([0x07, 0xe8, 5, 1, 10, 0, 0])),
    pngChunk('eXIf', phoneExifTiff(orientation)),
    png.subarray(ihdrEnd),
  ]);
}

function riffChunk(fourcc: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + data.length + (data.length & 1));
  out.set(enc.encode(fourcc));
  new DataView(out.buffer).setUint32(4, data.length, true);
  out.set(data, 8);
  return out;
}

/** An extended WebP (VP8X) with EXIF and XMP chunks around a lossless bitstream whose header says `width` × `height`. */
export function phoneWebp(width = 40, height = 30, orientation = 3): { bytes: Uint8Array; bitstream: Uint8Array } {
  const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
  const bitstream = concatBytes([
    new Uint8Array([0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, (bits >>> 24) & 0xff]),
    new Uint8Array(37).map((_, i) => (i * 7) & 0xff),
  ]);
  const vp8x = new Uint8Array(10);
  vp8x[0] = 0x08 | 0x04; // EXIF and XMP present
  vp8x.set([(width - 1) & 0xff, ((width - 1) >> 8) & 0xff, (width - 1) >> 16], 4);
  vp8x.set([(height - 1) & 0xff, ((height - 1) >> 8) & 0xff, (height - 1) >> 16], 7);
  const body = concatBytes([
    riffChunk('VP8X', vp8x),
    riffChunk('VP8L', bitstream),
    riffChunk('EXIF', phoneExifTiff(orientation)),
    riffChunk('XMP ', XMP),
  ]);
  const header = concatBytes([enc.encode('RIFF'), new Uint8Array(4), enc.encode('WEBP')]);
  new DataView(header.buffer).setUint32(4, body.length + 4, true);
  return { bytes: concatBytes([header, body]), bitstream };
}

/**
 * An animated WebP (VP8X with the animation flag, ANIM, two ANMF frames) whose first frame carries, after its
 * bitstream, an EXIF chunk with GPS and an unknown chunk holding a secret, as an editor that copies a photo's
 * metadata into each frame leaves them.
 */
export function animatedWebp(width = 24, height = 16): { bytes: Uint8Array; bitstream: Uint8Array } {
  const { bitstream } = phoneWebp(width, height, 1);
  const vp8x = new Uint8Array(10);
  vp8x[0] = 0x02 | 0x08; // animation, and EXIF as the editor flags it
  vp8x.set([(width - 1) & 0xff, ((width - 1) >> 8) & 0xff, (width - 1) >> 16], 4);
  vp8x.set([(height - 1) & 0xff, ((height - 1) >> 8) & 0xff, (height - 1) >> 16], 7);
  const frameHeader = new Uint8Array(16);
  frameHeader.set([(width - 1) & 0xff, ((width - 1) >> 8) & 0xff, (width - 1) >> 16], 6);
  frameHeader.set([(height - 1) & 0xff, ((height - 1) >> 8) & 0xff, (height - 1) >> 16], 9);
  frameHeader.set([100, 0, 0], 12); // 100 ms
  const frame = (...extra: Uint8Array[]) =>
    riffChunk('ANMF', concatBytes([frameHeader, riffChunk('VP8L', bitstream), ...extra]));
  const body = concatBytes([
    riffChunk('VP8X', vp8x),
    riffChunk('ANIM', new Uint8Array(6)),
    frame(riffChunk('EXIF', phoneExifTiff(1)), riffChunk('ABCD', enc.encode('Shot at the spot'))),
    frame(),
  ]);
  const header = concatBytes([enc.encode('RIFF'), new Uint8Array(4), enc.encode('WEBP')]);
  new DataView(header.buffer).setUint32(4, body.length + 4, true);
  return { bytes: concatBytes([header, body]), bitstream };
}

/** A PNG whose header claims `width` × `height` over a few bytes of image data: what a decompression bomb sends. */
export function pngClaiming(width: number, height: number): Uint8Array {
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, height);
  ihdr.set([1, 0, 0, 0, 0], 8); // 1-bit greyscale
  const signature = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const idat = new Uint8Array([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]);
  return concatBytes([signature, pngChunk('IHDR', ihdr), pngChunk('IDAT', idat), pngChunk('IEND', new Uint8Array(0))]);
}

/**
 * A whole, decodable 1-bit greyscale PNG of `width` × `height`, all black: its rows of zeros deflate to a few
 * hundred KB even at 16,000 × 16,000, though a viewer decodes it to width × height pixels.
 */
export async function blackPng(width: number, height: number): Promise<Uint8Array> {
  const row = new Uint8Array(1 + Math.ceil(width / 8));
  const stream = new CompressionStream('deflate');
  const writer = stream.writable.getWriter();
  const written = (async () => {
    for (let y = 0; y < height; y++) await writer.write(row);
    await writer.close();
  })();
  const data = new Uint8Array(await new Response(stream.readable).arrayBuffer());
  await written;
  const claimed = pngClaiming(width, height);
  return concatBytes([claimed.subarray(0, 33), pngChunk('IDAT', data), pngChunk('IEND', new Uint8Array(0))]);
}

function box(type: string, ...payload: Uint8Array[]): Uint8Array {
  const data = concatBytes(payload);
  const out = new Uint8Array(8 + data.length);
  new DataView(out.buffer).setUint32(0, out.length);
  out.set(enc.encode(type), 4);
  out.set(data, 8);
  return out;
}

/** A movie header (version 0) and one video track header of the given size. */
function movie(durationMs: number, width: number, height: number): Uint8Array {
  const mvhd = new Uint8Array(100);
  const mv = new DataView(mvhd.buffer);
  mv.setUint32(12, 1000); // timescale
  mv.setUint32(16, durationMs);
  const audio = new Uint8Array(84);
  const video = new Uint8Array(84);
  const tk = new DataView(video.buffer);
  tk.setUint32(76, width * 65536);
  tk.setUint32(80, height * 65536);
  return box('moov', box('mvhd', mvhd), box('trak', box('tkhd', audio)), box('trak', box('tkhd', video)));
}

/**
 * An MP4 (or QuickTime, brand `qt  `) of `totalBytes`: ftyp, then the movie box before or after a media data
 * box of filler, as cameras write it last and streaming encoders first.
 */
export function video(options: {
  totalBytes: number;
  durationMs?: number;
  width?: number;
  height?: number;
  brand?: string;
  moovLast?: boolean;
}): Uint8Array {
  const { totalBytes, durationMs = 12_345, width = 1920, height = 1080, brand = 'isom', moovLast = true } = options;
  const ftyp = box('ftyp', enc.encode(brand), new Uint8Array(4), enc.encode(`${brand}mp41`));
  const moov = movie(durationMs, width, height);
  const fill = totalBytes - ftyp.length - moov.length - 8;
  const filler = new Uint8Array(fill);
  for (let i = 0; i < fill; i += 4096) filler[i] = (i / 4096) & 0xff;
  const mdat = box('mdat', filler);
  return moovLast ? concatBytes([ftyp, mdat, moov]) : concatBytes([ftyp, moov, mdat]);
}

/**
 * A JPEG whose JFIF APP0 carries a thumbnail beyond its 14-byte header, followed by a JFXX extension, an
 * application-reserved JPGn segment (0xF0) and a reserved marker (0x02), each holding a secret.
 */
export function jpegWithHiddenSegments(width = 16, height = 16): Uint8Array {
  const plain = new Uint8Array(jpeg.encode({ width, height, data: gradient(width, height) }, 90).data);
  const app0End = 4 + ((plain[4]! << 8) | plain[5]!);
  const secret = enc.encode('SN-0042-SECRET\0'); // 15 bytes: a 5×1 RGB thumbnail
  const jfif = concatBytes([enc.encode('JFIF\0'), new Uint8Array([1, 2, 1, 0, 72, 0, 72, 5, 1]), secret]);
  const jfxx = concatBytes([enc.encode('JFXX\0'), new Uint8Array([0x10]), enc.encode('PhoneCo thumbnail')]);
  return concatBytes([
    plain.subarray(0, 2),
    jpegSegment(0xe0, jfif),
    jpegSegment(0xe0, jfxx),
    jpegSegment(0xf0, enc.encode('GPSLatitude 52.31')),
    jpegSegment(0x02, enc.encode('Shot at the spot')),
    plain.subarray(app0End),
  ]);
}

/** Where a phone or an editor writes a video's location. */
export type VideoLocationStyle = 'iphone-keys' | 'android-xyz' | 'loci' | 'xmp-uuid';

const latin1 = (value: string) => Uint8Array.from(value, (ch) => ch.charCodeAt(0));
const uint32 = (value: number) => {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value);
  return out;
};

/** A box whose type is given as Latin-1 (`©xyz` is 0xA9 'xyz') or as its 4 bytes (an `ilst` item's key index). */
function rawBox(type: string | Uint8Array, ...payload: Uint8Array[]): Uint8Array {
  const data = concatBytes(payload);
  return concatBytes([uint32(8 + data.length), typeof type === 'string' ? latin1(type) : type, data]);
}

/** The coordinates the phone fixtures record, as ISO 6709 text. */
export const VIDEO_COORDINATES = '+52.5163+013.3777';
const fixed16 = (degrees: number) => uint32(Math.round(degrees * 65536) >>> 0);
/** 3GPP's `loci` stores them as 16.16 fixed point: longitude then latitude. */
export const LOCI_COORDINATES = concatBytes([fixed16(13.3777), fixed16(52.5163)]);

/** An `mdta` metadata box as an iPhone writes it in `moov`: handler, keys, and one `ilst` item per key. */
function appleKeysMeta(entries: [string, string][]): Uint8Array {
  const hdlr = rawBox(
    'hdlr',
    new Uint8Array(4),
    new Uint8Array(4),
    latin1('mdta'),
    new Uint8Array(12),
    new Uint8Array(1),
  );
  const keys = rawBox(
    'keys',
    new Uint8Array(4),
    uint32(entries.length),
    ...entries.map(([key]) => rawBox('mdta', latin1(key))),
  );
  const items = entries.map(([, value], i) =>
    rawBox(uint32(i + 1), rawBox('data', uint32(1), new Uint8Array(4), latin1(value))),
  );
  // QuickTime's meta box has no version and flags: its handler comes first.
  return rawBox('meta', hdlr, keys, rawBox('ilst', ...items));
}

/** What each style adds inside `moov`, and at the top level after it. */
function locationBoxes(style: VideoLocationStyle): { inMovie: Uint8Array[]; topLevel: Uint8Array[] } {
  switch (style) {
    case 'iphone-keys':
      return {
        inMovie: [
          appleKeysMeta([
            ['com.apple.quicktime.location.accuracy.horizontal', '14.285'],
            ['com.apple.quicktime.location.ISO6709', `${VIDEO_COORDINATES}+034.000/`],
            ['com.apple.quicktime.make', 'Apple'],
            ['com.apple.quicktime.creationdate', '2024-05-01T10:00:00+0200'],
          ]),
        ],
        topLevel: [],
      };
    case 'android-xyz': {
      const value = latin1(`${VIDEO_COORDINATES}/`);
      const xyz = rawBox('\u00a9xyz', new Uint8Array([0, value.length, 0x15, 0xc7]), value);
      return { inMovie: [rawBox('udta', xyz)], topLevel: [] };
    }
    case 'loci': {
      const loci = rawBox(
        'loci',
        new Uint8Array(4),
        new Uint8Array([0x15, 0xc7]),
        latin1('Shot at the spot\0'),
        new Uint8Array([0]),
        LOCI_COORDINATES,
        fixed16(34),
        latin1('earth\0\0'),
      );
      return { inMovie: [rawBox('udta', loci)], topLevel: [] };
    }
    case 'xmp-uuid': {
      const uuid = new Uint8Array([
        0xbe, 0x7a, 0xcf, 0xcb, 0x97, 0xa9, 0x42, 0xe8, 0x9c, 0x71, 0x99, 0x94, 0x91, 0xe3, 0xaf, 0xac,
      ]);
      const xmp = latin1(
        `<x:xmpmeta><rdf:Description exif:GPSLatitude="52,31.0N" xmp:Label="${VIDEO_COORDINATES}"/></x:xmpmeta>`,
      );
      return { inMovie: [], topLevel: [rawBox('uuid', uuid, xmp)] };
    }
  }
}

/** What a fixture video's sample data starts with, where its `stco` points. */
export const SAMPLE_MARK = 'SAMPLE-DATA';

/**
 * A video as a phone makes it: `ftyp`, the media data, the movie box (a track whose `stco` points at the sample
 * data) carrying the location where `style` says, and, for editors' XMP, a `uuid` box after it. `moovLast: false`
 * puts the movie box first, as streaming encoders do.
 */
export function phoneVideo(
  style: VideoLocationStyle,
  options: { totalBytes?: number; moovLast?: boolean } = {},
): { bytes: Uint8Array; sampleOffset: number } {
  const { totalBytes = 4096, moovLast = true } = options;
  const brand = style === 'iphone-keys' ? 'qt  ' : 'isom';
  const ftyp = rawBox('ftyp', latin1(brand), new Uint8Array(4), latin1(`${brand}mp41`));
  const { inMovie, topLevel } = locationBoxes(style);
  const mvhd = new Uint8Array(100);
  new DataView(mvhd.buffer).setUint32(12, 1000);
  new DataView(mvhd.buffer).setUint32(16, 9_250);
  const tkhd = new Uint8Array(84);
  new DataView(tkhd.buffer).setUint32(76, 1920 * 65536);
  new DataView(tkhd.buffer).setUint32(80, 1080 * 65536);
  const movieWith = (sampleOffset: number) =>
    rawBox(
      'moov',
      rawBox('mvhd', mvhd),
      rawBox(
        'trak',
        rawBox('tkhd', tkhd),
        rawBox(
          'mdia',
          rawBox('minf', rawBox('stbl', rawBox('stco', new Uint8Array(4), uint32(1), uint32(sampleOffset)))),
        ),
      ),
      ...inMovie,
    );
  const moovBytes = movieWith(0).length;
  const after = concatBytes(topLevel);
  const fill = totalBytes - ftyp.length - moovBytes - after.length - 8;
  const samples = new Uint8Array(fill);
  samples.set(latin1(SAMPLE_MARK));
  for (let i = 4096; i < fill; i += 4096) samples[i] = (i / 4096) & 0xff;
  const mdat = rawBox('mdat', samples);
  const sampleOffset = ftyp.length + (moovLast ? 0 : moovBytes) + 8;
  const moov = movieWith(sampleOffset);
  const bytes = moovLast ? concatBytes([ftyp, mdat, moov, after]) : concatBytes([ftyp, moov, mdat, after]);
  return { bytes, sampleOffset };
}
