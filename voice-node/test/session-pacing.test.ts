import { Readable } from 'node:stream';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServerMessage } from '../src/messages.js';
import { VoiceSession } from '../src/session.js';
import { readSettings } from '../src/settings.js';
import type { SpeechEngine } from '../src/synthesis/engine.js';
import { espeakEngine } from '../src/synthesis/espeak.js';

const SENTENCE = 'Keep your shoulders over the board the whole way down the ramp, and breathe.';
const PACING = { leadMs: 300, chunkFrames: 8 };

/** The real espeak-ng | lame output for one sentence, read once so the paced replay below runs on a virtual clock. */
let audio: Buffer;
beforeAll(async () => {
  const synthesis = espeakEngine(readSettings({})).start(SENTENCE);
  const parts: Buffer[] = [];
  for await (const part of synthesis.audio) parts.push(part as Buffer);
  synthesis.stop();
  audio = Buffer.concat(parts);
});
afterEach(() => {
  vi.useRealTimers();
});

/** An engine that hands over the recorded audio at once, as a synthesis faster than playback does. */
const replayEngine = (): SpeechEngine => ({
  name: 'replay',
  start: () => ({ audio: Readable.from([audio]), stop: () => undefined, pid: undefined }),
});

describe('pacing against the playback clock', () => {
  it('sends each chunk no earlier than the lead before its audio plays, and never holds one past that', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const sent: (ServerMessage & { at: number })[] = [];
    const session = new VoiceSession('pacing', (m) => sent.push({ ...m, at: Date.now() }), replayEngine(), PACING);
    session.speak(SENTENCE);
    await vi.runAllTimersAsync();
    await vi.waitFor(() => expect(sent.some((m) => m.type === 'turn_end')).toBe(true));

    const chunks = sent.flatMap((m) => (m.type === 'tts_audio_chunk' ? [m] : []));
    expect(chunks.length).toBeGreaterThan(3);
    const first = chunks[0]!.at;
    let playedBefore = 0;
    for (const chunk of chunks) {
      // Where this chunk's audio starts on the listener's clock, minus the lead it may run ahead (frames and timers round to the ms).
      expect(Math.abs(chunk.at - first - Math.max(0, playedBefore - PACING.leadMs))).toBeLessThanOrEqual(1.5);
      playedBefore += chunk.durationMs;
    }
    session.close();
  });
});
