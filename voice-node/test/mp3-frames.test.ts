import { describe, expect, it } from 'vitest';
import { FrameReader, parseFrameHeader, splitFrames } from '../src/mp3-frames.js';

// MPEG-1 Layer III, no CRC, 128 kbps, 44.1 kHz, no padding, mono: what lame writes for the voice box.
const HEADER_128_441_MONO = [0xff, 0xfb, 0x90, 0xc4];

function frame(header: number[], length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  bytes.set(header);
  return bytes;
}

describe('MP3 frame headers', () => {
  it('reads a 128 kbps 44.1 kHz mono Layer III header: 417 bytes, 1152 samples, about 26.12 ms', () => {
    const header = parseFrameHeader(new Uint8Array(HEADER_128_441_MONO))!;
    expect(header).toMatchObject({
      version: 1,
      layer: 3,
      bitrate: 128_000,
      sampleRate: 44_100,
      padding: false,
      channelMode: 'mono',
      frameLength: 417,
      samplesPerFrame: 1152,
    });
    expect(header.durationMs).toBeCloseTo(26.122, 3);
  });

  it('adds the padding byte and reads other rates: 64 kbps 22.05 kHz MPEG-2 is 576 samples', () => {
    expect(parseFrameHeader(new Uint8Array([0xff, 0xfb, 0x92, 0x44]))).toMatchObject({
      padding: true,
      frameLength: 418,
    });
    const mpeg2 = parseFrameHeader(new Uint8Array([0xff, 0xf3, 0x80, 0xc4]))!;
    expect(mpeg2).toMatchObject({ version: 2, bitrate: 64_000, sampleRate: 22_050, samplesPerFrame: 576 });
    expect(mpeg2.frameLength).toBe(208);
  });

  it('refuses bytes that are no frame header: no sync, reserved version, free or bad bitrate, bad rate', () => {
    expect(parseFrameHeader(new Uint8Array([0x49, 0x44, 0x33, 0x04]))).toBeNull();
    expect(parseFrameHeader(new Uint8Array([0xff, 0xeb, 0x90, 0xc4]))).toBeNull();
    expect(parseFrameHeader(new Uint8Array([0xff, 0xfb, 0x00, 0xc4]))).toBeNull();
    expect(parseFrameHeader(new Uint8Array([0xff, 0xfb, 0xf0, 0xc4]))).toBeNull();
    expect(parseFrameHeader(new Uint8Array([0xff, 0xfb, 0x9c, 0xc4]))).toBeNull();
    expect(parseFrameHeader(new Uint8Array([0xff, 0xfb, 0x90]))).toBeNull();
  });

  it('splits whole frames, skips leading bytes before the sync and keeps a partial frame for later', () => {
    const one = frame(HEADER_128_441_MONO, 417);
    const bytes = new Uint8Array([1, 2, 3, ...one, ...one, ...one.slice(0, 100)]);
    const { frames, rest } = splitFrames(bytes);
    expect(frames).toHaveLength(2);
    expect(frames.every((f) => f.bytes.length === 417)).toBe(true);
    expect(rest).toHaveLength(100);
  });

  it('reads frames across arbitrary chunk boundaries as a stream', () => {
    const one = frame(HEADER_128_441_MONO, 417);
    const stream = new Uint8Array([...one, ...one, ...one]);
    const reader = new FrameReader();
    const counts = [
      reader.push(stream.subarray(0, 2)),
      reader.push(stream.subarray(2, 600)),
      reader.push(stream.subarray(600)),
    ].map((frames) => frames.length);
    expect(counts).toEqual([0, 1, 2]);
  });
});
