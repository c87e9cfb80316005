// Every setting of the voice box, read once from the environment (docs/voice.md, Settings); each
// default with its reason. Nothing else reads process.env.

export type EngineName = 'espeak' | 'openai';

export interface VoiceSettings {
  host: string;
  port: number;
  /** Concurrent WebSocket sessions; each may run one synthesis subprocess group. */
  maxSessions: number;
  /** Largest speak body in bytes: a companion reply is 1 to 3 short sentences, so 8 KiB is generous. */
  maxSpeakBytes: number;
  /** How often each socket is pinged; a socket that missed the previous pong is dropped. */
  pingIntervalMs: number;
  /** How far audio may be sent ahead of real-time playback: the client's jitter buffer, and what a barge-in can no longer recall. */
  leadMs: number;
  /** MP3 frames per tts_audio_chunk (8 frames ≈ 209 ms at 44.1 kHz). */
  chunkFrames: number;
  engine: EngineName;
  espeakVoice: string;
  /** espeak-ng words per minute. */
  espeakSpeed: number;
  openai: { baseUrl: string; apiKey: string | undefined; model: string; voice: string };
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be a whole number of at least ${min}, not "${raw}"`);
  }
  return value;
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): VoiceSettings {
  const engine = env.VOICE_ENGINE?.trim() || 'espeak';
  if (engine !== 'espeak' && engine !== 'openai') {
    throw new Error(`VOICE_ENGINE must be "espeak" or "openai", not "${engine}"`);
  }
  return {
    // Loopback unless told otherwise: locally only the Worker and the chat routes talk to it (the Dockerfile sets 0.0.0.0).
    host: env.VOICE_HOST?.trim() || '127.0.0.1',
    port: int(env, 'VOICE_PORT', 8788, 0),
    // bench/voice.ts on a shared 2-core machine: 16 sessions speaking at once stayed at real time, 24 fell behind.
    maxSessions: int(env, 'VOICE_MAX_SESSIONS', 16),
    maxSpeakBytes: int(env, 'VOICE_MAX_SPEAK_BYTES', 8192),
    // Proxies drop idle WebSockets after about 100 s (Cloudflare); 30 s pings keep a live one open.
    pingIntervalMs: int(env, 'VOICE_PING_INTERVAL_MS', 30_000),
    leadMs: int(env, 'VOICE_LEAD_MS', 300, 0),
    chunkFrames: int(env, 'VOICE_CHUNK_FRAMES', 8),
    engine,
    espeakVoice: env.VOICE_ESPEAK_VOICE?.trim() || 'en-us',
    espeakSpeed: int(env, 'VOICE_ESPEAK_SPEED', 165),
    openai: {
      baseUrl: (
        env.VOICE_OPENAI_BASE_URL?.trim() ||
        env.OPENAI_BASE_URL?.trim() ||
        'https://api.openai.com/v1'
      ).replace(/\/$/, ''),
      apiKey: env.OPENAI_API_KEY?.trim() || undefined,
      model: env.VOICE_OPENAI_MODEL?.trim() || 'gpt-4o-mini-tts',
      voice: env.VOICE_OPENAI_VOICE?.trim() || 'alloy',
    },
  };
}
