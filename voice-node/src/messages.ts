// Every message of the voice WebSocket in one place (docs/voice.md), imported by the server, the
// tests and the bench: the interface spec's Voice WebSocket events plus the fields clients rely on.
import type { Emotion } from './emotion.js';

/** The audio every `tts_audio_chunk` carries: whole MP3 frames, 44.1 kHz, 128 kbps CBR, mono. */
export const AUDIO_FORMAT = {
  mimeType: 'audio/mpeg',
  sampleRate: 44_100,
  bitrate: 128_000,
  channels: 1,
} as const;

export type ServerMessage =
  | { type: '_ready'; sessionId: string }
  | { type: 'emotion_state'; replyId: string; emotion: Emotion; intensity: number }
  | { type: 'turn_start'; role: 'assistant'; turnId: string; replyId: string; index: number; text: string }
  | { type: 'tts_start'; turnId: string; replyId: string; format: typeof AUDIO_FORMAT }
  | { type: 'tts_audio_chunk'; turnId: string; seq: number; audio: string; durationMs: number }
  | { type: 'tts_end'; turnId: string; chunks: number; durationMs: number }
  | { type: 'turn_end'; turnId: string; replyId: string }
  | { type: 'barge_in_detected'; turnId: string | null; replyId: string | null; droppedReplies: number }
  | { type: 'error'; error: string };

export type ServerMessageType = ServerMessage['type'];

/** What a client may send; anything else is answered with an `error` message and otherwise ignored. */
export type ClientMessage = { type: 'barge-in' };

/** The client message in a frame, or a sentence saying why it is not one. */
export function parseClientMessage(data: string): ClientMessage | { invalid: string } {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return { invalid: 'Messages are JSON objects, e.g. {"type":"barge-in"}.' };
  }
  const type = (value as { type?: unknown } | null)?.type;
  if (type === 'barge-in') return { type };
  return { invalid: `Unknown message type ${JSON.stringify(type ?? null)}: the only one is "barge-in".` };
}

/** Close codes the voice box sends (RFC 6455 section 7.4.1 and the IANA registry). */
export const CLOSE = {
  /** The session cap is reached: the same code and reason a client can retry on. */
  tryAgainLater: { code: 1013, reason: 'Try again later: the voice box is at its session limit.' },
  /** The voice box is shutting down (a deploy or a restart). */
  goingAway: { code: 1001, reason: 'The voice box is restarting.' },
} as const;
