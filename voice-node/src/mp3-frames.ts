// MPEG audio frame headers (ISO/IEC 11172-3 and 13818-3), enough to split a Layer III stream into
// frames and know how long each one plays: the voice box paces by it and the tests check the format by it.

/** One parsed 4-byte frame header. */
export interface FrameHeader {
  version: 1 | 2 | 2.5;
  layer: 1 | 2 | 3;
  /** Bits per second. */
  bitrate: number;
  sampleRate: number;
  padding: boolean;
  channelMode: 'stereo' | 'joint-stereo' | 'dual-channel' | 'mono';
  /** Bytes in the frame, header included. */
  frameLength: number;
  samplesPerFrame: number;
  /** How long the frame plays, in milliseconds (1152 samples at 44.1 kHz ≈ 26.12 ms). */
  durationMs: number;
}

// Bitrates in kbps by [version group][layer][index]; index 0 ("free") and 15 are not served.
const BITRATES: Record<'v1' | 'v2', Record<1 | 2 | 3, number[]>> = {
  v1: {
    1: [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    2: [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    3: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  },
  v2: {
    1: [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    3: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  },
};
const SAMPLE_RATES: Record<1 | 2 | 2.5, number[]> = {
  1: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  2.5: [11025, 12000, 8000],
};
const CHANNEL_MODES = ['stereo', 'joint-stereo', 'dual-channel', 'mono'] as const;

/** The header at `offset`, or null when the bytes there are not a valid frame header. */
export function parseFrameHeader(bytes: Uint8Array, offset = 0): FrameHeader | null {
  if (offset + 4 > bytes.length) return null;
  const b1 = bytes[offset + 1]!;
  const b2 = bytes[offset + 2]!;
  const b3 = bytes[offset + 3]!;
  if (bytes[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const versionBits = (b1 >> 3) & 0b11;
  const layerBits = (b1 >> 1) & 0b11;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 0b11;
  if (versionBits === 0b01 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) {
    return null;
  }
  const version = versionBits === 0b11 ? 1 : versionBits === 0b10 ? 2 : 2.5;
  const layer = (4 - layerBits) as 1 | 2 | 3;
  const bitrate = BITRATES[version === 1 ? 'v1' : 'v2'][layer][bitrateIndex]! * 1000;
  const sampleRate = SAMPLE_RATES[version][rateIndex]!;
  const padding = ((b2 >> 1) & 1) === 1;
  const samplesPerFrame = layer === 1 ? 384 : layer === 3 && version !== 1 ? 576 : 1152;
  const frameLength =
    layer === 1
      ? (Math.floor((12 * bitrate) / sampleRate) + (padding ? 1 : 0)) * 4
      : Math.floor(((samplesPerFrame / 8) * bitrate) / sampleRate) + (padding ? 1 : 0);
  return {
    version,
    layer,
    bitrate,
    sampleRate,
    padding,
    channelMode: CHANNEL_MODES[b3 >> 6]!,
    frameLength,
    samplesPerFrame,
    durationMs: (samplesPerFrame / sampleRate) * 1000,
  };
}

/** Whole frames found in a buffer, and the bytes after the last whole frame (kept for the next read). */
export interface FrameSplit {
  frames: { header: FrameHeader; bytes: Uint8Array }[];
  rest: Uint8Array;
}

/**
 * Splits bytes into whole frames, skipping anything before a frame sync (an ID3 tag, garbage);
 * a trailing partial frame is returned as `rest` to be prefixed to the next read.
 */
export function splitFrames(bytes: Uint8Array): FrameSplit {
  const frames: FrameSplit['frames'] = [];
  let offset = 0;
  while (offset + 4 <= bytes.length) {
    const header = parseFrameHeader(bytes, offset);
    if (!header) {
      offset += 1;
      continue;
    }
    if (offset + header.frameLength > bytes.length) break;
    frames.push({ header, bytes: bytes.subarray(offset, offset + header.frameLength) });
    offset += header.frameLength;
  }
  return { frames, rest: bytes.subarray(offset) };
}

/** Streams bytes in, frames out: the incremental form of splitFrames. */
export class FrameReader {
  private pending: Uint8Array = new Uint8Array(0);

  push(chunk: Uint8Array): FrameSplit['frames'] {
    const joined = new Uint8Array(this.pending.length + chunk.length);
    joined.set(this.pending);
    joined.set(chunk, this.pending.length);
    const { frames, rest } = splitFrames(joined);
    this.pending = rest.slice();
    return frames;
  }
}
