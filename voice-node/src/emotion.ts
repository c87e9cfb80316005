// The expression layer's cue (the interface spec: emotion_state "drives an expression layer"): one
// state per reply, read from its tone by plain word and punctuation rules, so it is instant and testable.

export const EMOTIONS = ['excited', 'happy', 'curious', 'concerned', 'neutral'] as const;
export type Emotion = (typeof EMOTIONS)[number];

const CONCERNED = /\b(sorry|hurt|injur\w*|pain|ouch|careful|sad|unfortunately|bummer|rough|slam\w*|broke|worr\w*)\b/i;
const EXCITED = /\b(stoked|sick|insane|epic|hype\w*|let'?s go|amazing|awesome|gnarly|rad|wow|huge|yes)\b/i;
const HAPPY = /\b(nice|cool|good|great|glad|love|sweet|fun|thanks|dope|ha|haha)\b/i;

/** The reply's emotion and how strongly (0 to 1). Concern wins over excitement: a slam is not hype. */
export function emotionOf(text: string): { emotion: Emotion; intensity: number } {
  const exclamations = (text.match(/!/g) ?? []).length;
  const intensity = (base: number) => Math.min(1, Math.round((base + 0.1 * exclamations) * 100) / 100);
  if (CONCERNED.test(text)) return { emotion: 'concerned', intensity: intensity(0.6) };
  if (EXCITED.test(text) || exclamations >= 2) return { emotion: 'excited', intensity: intensity(0.7) };
  if (HAPPY.test(text) || exclamations === 1) return { emotion: 'happy', intensity: intensity(0.5) };
  if (/\?\s*$/.test(text.trim())) return { emotion: 'curious', intensity: 0.5 };
  return { emotion: 'neutral', intensity: 0.3 };
}
