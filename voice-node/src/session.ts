import { randomUUID } from 'node:crypto';
import { emotionOf } from './emotion.js';
import { AUDIO_FORMAT, type ServerMessage } from './messages.js';
import { FrameReader } from './mp3-frames.js';
import { splitSentences } from './sentences.js';
import type { SpeechEngine, Synthesis } from './synthesis/engine.js';
import { cleanForSpeech } from './text-cleaning.js';

export interface PacingOptions {
  /** How far audio may run ahead of real-time playback (settings.ts). */
  leadMs: number;
  /** MP3 frames per chunk. */
  chunkFrames: number;
}

/** Thrown inside a reply when a barge-in or a close ends it; never escapes the session. */
class Interrupted extends Error {}

/**
 * One WebSocket's runtime: a queue of replies spoken one after another, one sentence and one synthesis
 * process group at a time, audio paced against a playback clock so a barge-in really cuts it off.
 */
export class VoiceSession {
  private readonly queue: string[] = [];
  private running = false;
  private closed = false;
  /** Bumped by a barge-in or a close: a reply started under an older epoch stops at its next step. */
  private epoch = 0;
  private synthesis: Synthesis | undefined;
  private wake: (() => void) | undefined;
  private current: { turnId: string; replyId: string } | undefined;
  /** Wall-clock time at which the audio sent so far will have finished playing. */
  private playedUntil = 0;

  constructor(
    readonly id: string,
    private readonly send: (message: ServerMessage) => void,
    private readonly engine: SpeechEngine,
    private readonly pacing: PacingOptions,
  ) {}

  /** Queues a reply; it starts at once when nothing is being spoken (docs/voice.md, Queueing). */
  speak(text: string): void {
    if (this.closed) return;
    this.queue.push(text);
    if (!this.running) void this.drain();
  }

  /** Cuts the speech off now: the sentence in flight, and every queued reply. */
  bargeIn(): void {
    const interrupted = this.current;
    const droppedReplies = this.queue.length;
    this.interrupt();
    this.send({
      type: 'barge_in_detected',
      turnId: interrupted?.turnId ?? null,
      replyId: interrupted?.replyId ?? null,
      droppedReplies,
    });
  }

  close(): void {
    this.closed = true;
    this.interrupt();
  }

  /** The process group synthesising now, if any (tests check it is gone after a stop). */
  get synthesisPid(): number | undefined {
    return this.synthesis?.pid;
  }

  private interrupt(): void {
    this.epoch++;
    this.queue.length = 0;
    this.current = undefined;
    this.synthesis?.stop();
    this.synthesis = undefined;
    this.wake?.();
    // Whatever was sent and not yet played is the client's to drop; the next reply starts on a fresh clock.
    this.playedUntil = 0;
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length && !this.closed) {
        const epoch = this.epoch;
        try {
          await this.speakReply(this.queue.shift()!, epoch);
        } catch (err) {
          if (err instanceof Interrupted) continue;
          // A synthesis that failed mid-reply: say so and go on with the next reply.
          console.error(`[voice] session ${this.id}: ${(err as Error).message}`);
          this.send({ type: 'error', error: 'Speech synthesis failed for this reply.' });
        }
      }
    } finally {
      this.running = false;
      // A speak that arrived while an interrupted reply unwound.
      if (this.queue.length && !this.closed) void this.drain();
    }
  }

  private async speakReply(text: string, epoch: number): Promise<void> {
    const replyId = randomUUID();
    this.send({ type: 'emotion_state', replyId, ...emotionOf(text) });
    const sentences = splitSentences(cleanForSpeech(text));
    for (const [index, sentence] of sentences.entries()) {
      const turnId = randomUUID();
      this.current = { turnId, replyId };
      this.send({ type: 'turn_start', role: 'assistant', turnId, replyId, index, text: sentence });
      this.send({ type: 'tts_start', turnId, replyId, format: AUDIO_FORMAT });
      const { chunks, durationMs } = await this.streamSentence(sentence, turnId, epoch);
      this.send({ type: 'tts_end', turnId, chunks, durationMs: Math.round(durationMs) });
      this.send({ type: 'turn_end', turnId, replyId });
    }
    this.current = undefined;
  }

  /** Synthesises one sentence and sends its frames in chunks, each no earlier than `leadMs` before it plays. */
  private async streamSentence(text: string, turnId: string, epoch: number) {
    const synthesis = this.engine.start(text);
    this.synthesis = synthesis;
    const reader = new FrameReader();
    let pending: Uint8Array[] = [];
    let pendingMs = 0;
    let seq = 0;
    let durationMs = 0;
    const flush = async () => {
      if (!pending.length) return;
      const now = Date.now();
      if (this.playedUntil < now) this.playedUntil = now;
      await this.sleep(this.playedUntil - this.pacing.leadMs - now, epoch);
      this.send({
        type: 'tts_audio_chunk',
        turnId,
        seq: seq++,
        audio: Buffer.concat(pending).toString('base64'),
        durationMs: Math.round(pendingMs * 10) / 10,
      });
      this.playedUntil += pendingMs;
      durationMs += pendingMs;
      pending = [];
      pendingMs = 0;
    };
    try {
      for await (const bytes of synthesis.audio) {
        this.check(epoch);
        for (const frame of reader.push(bytes as Buffer)) {
          pending.push(frame.bytes);
          pendingMs += frame.header.durationMs;
          if (pending.length >= this.pacing.chunkFrames) await flush();
        }
      }
      this.check(epoch);
      await flush();
    } catch (err) {
      // A stop destroys the audio stream under the loop: that is the interruption, not a failure.
      this.check(epoch);
      throw err;
    } finally {
      synthesis.stop();
      if (this.synthesis === synthesis) this.synthesis = undefined;
    }
    return { chunks: seq, durationMs };
  }

  private check(epoch: number): void {
    if (epoch !== this.epoch) throw new Interrupted();
  }

  /** Waits `ms`, or less if interrupted; then throws if this reply's epoch is over. */
  private async sleep(ms: number, epoch: number): Promise<void> {
    this.check(epoch);
    if (ms > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
    this.check(epoch);
  }
}
