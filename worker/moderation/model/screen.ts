import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';
import { askModerationModel, type ModerationInput } from './client';
import { moderationModel } from './settings';
import type { Verdict } from './verdict';

/**
 * The model's verdict on a rider's text, or null when no model is configured (the word filter alone). Settings
 * are read at once, so a missing key is refused before anything is stored; the answer is awaited by the caller.
 */
export function screenText(env: Env, text: string | undefined): Promise<Verdict> | null {
  const model = moderationModel(env);
  if (!model || text === undefined) return null;
  return askModerationModel(model, { text });
}

/** The model's verdict on a photo (a photo is larger, so it may take longer), or null without a model. */
export function screenPhoto(env: Env, input: () => Promise<ModerationInput | undefined>): Promise<Verdict> | null {
  const model = moderationModel(env);
  if (!model) return null;
  return input().then((read) =>
    read
      ? askModerationModel(model, read, Math.max(model.timeoutMs, LIMITS.moderation.photoTimeoutMs))
      : { outcome: 'unavailable' as const, error: 'the stored photo could not be read' },
  );
}

/** Bytes as a `data:` URL, the form a photo that is not public goes to the model in. */
export function dataUrlOf(type: string, bytes: Uint8Array): string {
  return `data:${type};base64,${base64Of(bytes)}`;
}

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  // In chunks: String.fromCharCode takes its arguments on the stack.
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}
