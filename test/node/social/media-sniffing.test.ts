import { describe, expect, it } from 'vitest';
import { parseRange } from '../../../worker/platform/http/ranges';
import { readMovie, readVideoFacts } from '../../../worker/social/media/mp4';
import { sniff } from '../../../worker/social/media/sniff';
import { phoneJpeg, phoneWebp, video } from '../../support/media-fixtures';

const bytesOf = (...values: (number | string)[]) =>
  new Uint8Array(
    values.flatMap((value) => (typeof value === 'string' ? [...value].map((ch) => ch.charCodeAt(0)) : [value])),
  );

/** An ftyp box of major brand `major` listing `compatible`, then the start of a media data box. */
const ftyp = (major: string, ...compatible: string[]) =>
  bytesOf(0, 0, 0, 16 + 4 * compatible.length, 'ftyp', major, 0, 0, 0, 0, ...compatible, 0, 0, 0, 8, 'mdat');

describe('sniffing the type from the bytes', () => {
  it.each([
    ['JPEG', phoneJpeg(8, 8, 1), 'image/jpeg'],
    ['PNG', bytesOf(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 'IHDR'), 'image/png'],
    ['WebP', phoneWebp().bytes, 'image/webp'],
    ['MP4', video({ totalBytes: 4096 }), 'video/mp4'],
    ['QuickTime by brand', video({ totalBytes: 4096, brand: 'qt  ' }), 'video/quicktime'],
    ['QuickTime without ftyp', bytesOf(0, 0, 0, 8, 'wide', 0, 0, 0, 8, 'mdat'), 'video/quicktime'],
    ['MP4 of brand mp42', ftyp('mp42', 'isom'), 'video/mp4'],
    ['MP4 of brand iso5 (DASH)', ftyp('iso5', 'dash'), 'video/mp4'],
    ['M4V', ftyp('M4V ', 'M4V ', 'mp42'), 'video/mp4'],
    ['a camera brand compatible with mp42 (Sony XAVC)', ftyp('XAVC', 'XAVC', 'mp42', 'iso2'), 'video/mp4'],
  ])('%s', (_, bytes, type) => {
    expect(sniff(bytes)).toMatchObject({ supported: true, type });
  });

  it.each([
    [bytesOf('GIF89a', 1, 0, 1, 0), 'a GIF image'],
    [bytesOf(0, 0, 0, 24, 'ftypheic', 0, 0, 0, 0), 'a HEIC image'],
    [bytesOf(0, 0, 0, 24, 'ftypavif', 0, 0, 0, 0), 'an AVIF image'],
    [ftyp('heix', 'mif1', 'heix'), 'a HEIC image'],
    [ftyp('mif1', 'mif1', 'heic'), 'a HEIF image'],
    [ftyp('msf1', 'msf1', 'hevc'), 'a HEIF image sequence'],
    [ftyp('MiHE', 'MiHE', 'miaf'), 'a HEIF image'],
    [ftyp('heim', 'heim'), 'a HEIF image'],
    [ftyp('heis', 'heis'), 'a HEIF image sequence'],
    [ftyp('miaf', 'miaf'), 'a HEIF image'],
    [ftyp('avis', 'avis', 'msf1'), 'an AVIF image sequence'],
    [ftyp('crx ', 'crx ', 'isom'), 'a Canon CR3 raw photo'],
    [ftyp('M4A ', 'M4A ', 'mp42', 'isom'), 'an MPEG-4 audio file'],
    [ftyp('3gp5', '3gp5', 'isom'), 'a 3GPP video'],
    [ftyp('abcd', 'abcd'), "an ISO media file of brand 'abcd'"],
    [bytesOf('%PDF-1.7\n'), 'a PDF document'],
    [bytesOf('<svg xmlns="http://www.w3.org/2000/svg">'), 'text markup (HTML, XML or SVG)'],
    [bytesOf('{"a":1}'), 'JSON text'],
    [bytesOf(0x1a, 0x45, 0xdf, 0xa3, 1, 2), 'a WebM or Matroska video'],
    [bytesOf('RIFF', 0, 0, 0, 0, 'AVI LIST'), 'an AVI video'],
    [bytesOf('hello there'), 'bytes of no known media type'],
    [new Uint8Array(0), 'an empty body'],
  ])('refuses %#, naming it %s', (bytes, what) => {
    expect(sniff(bytes)).toEqual({ supported: false, what });
  });
});

describe('video facts from the movie box', () => {
  const reader = (file: Uint8Array) => async (offset: number, length: number) => file.subarray(offset, offset + length);

  it.each([true, false])('finds duration and size with the movie box last: %s', async (moovLast) => {
    const file = video({ totalBytes: 200_000, durationMs: 61_500, width: 1280, height: 720, moovLast });
    expect(await readVideoFacts(reader(file), file.length, 1 << 20)).toEqual({
      durationMs: 61_500,
      width: 1280,
      height: 720,
    });
  });

  it('reads only box headers on the way: a large media box is skipped, not read', async () => {
    const file = video({ totalBytes: 5_000_000 });
    let read = 0;
    const counting = async (offset: number, length: number) => {
      read += length;
      return file.subarray(offset, offset + length);
    };
    await readVideoFacts(counting, file.length, 1 << 20);
    expect(read).toBeLessThan(1000);
  });

  it('says nothing for a movie box without headers, and survives garbage', async () => {
    expect(readMovie(new Uint8Array(0))).toEqual({});
    expect(readMovie(bytesOf(0, 0, 0, 3, 'mvhd'))).toEqual({});
    const garbage = bytesOf(0, 0, 0, 2, 'junk', 1, 2, 3);
    expect(await readVideoFacts(reader(garbage), garbage.length, 1024)).toEqual({});
  });
});

describe('Range headers', () => {
  it.each([
    ['bytes=0-99', 1000, { kind: 'part', offset: 0, length: 100 }],
    ['bytes=900-', 1000, { kind: 'part', offset: 900, length: 100 }],
    ['bytes=-100', 1000, { kind: 'part', offset: 900, length: 100 }],
    ['bytes=-5000', 1000, { kind: 'part', offset: 0, length: 1000 }],
    ['bytes=990-2000', 1000, { kind: 'part', offset: 990, length: 10 }],
    ['bytes=1000-', 1000, { kind: 'unsatisfiable' }],
    ['bytes=-0', 1000, { kind: 'unsatisfiable' }],
    ['bytes=5-2', 1000, { kind: 'whole' }],
    ['bytes=0-1,5-6', 1000, { kind: 'whole' }],
    ['items=0-1', 1000, { kind: 'whole' }],
    [undefined, 1000, { kind: 'whole' }],
  ])('%s of %i bytes', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});
