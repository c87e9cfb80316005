import { positiveIntSetting, requireSetting } from '../../platform/config';
import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';
import { MissingSettingError } from '../../platform/setting-error';

/** The moderation model the service asks, when MODERATION_PROVIDER names one (docs/moderation.md, "Held for review"). */
export interface ModerationModel {
  /** Where `POST /v1/moderations` is sent. */
  endpoint: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
}

export const DEFAULT_MODERATION_BASE_URL = 'https://api.openai.com';
export const DEFAULT_MODERATION_MODEL = 'omni-moderation-latest';
const PROVIDERS = ['openai'] as const;

/**
 * The configured model, or null when MODERATION_PROVIDER is unset (the word filter alone). A provider this service
 * does not speak, or a missing MODERATION_API_KEY, is refused by name: content is never let through unchecked
 * because a setting was mistyped.
 */
export function moderationModel(env: Env): ModerationModel | null {
  const provider = env.MODERATION_PROVIDER?.trim();
  if (!provider) return null;
  if (!(PROVIDERS as readonly string[]).includes(provider))
    throw new MissingSettingError('MODERATION_PROVIDER', `must be one of ${PROVIDERS.join(', ')}, not "${provider}"`);
  const apiKey = requireSetting(env, 'MODERATION_API_KEY');
  // Either form of the base works: with or without the `/v1` OpenAI-compatible servers are often configured with.
  const base = (env.MODERATION_BASE_URL?.trim() || DEFAULT_MODERATION_BASE_URL)
    .replace(/\/+$/, '')
    .replace(/\/v1$/, '');
  return {
    endpoint: `${base}/v1/moderations`,
    apiKey,
    model: env.MODERATION_MODEL?.trim() || DEFAULT_MODERATION_MODEL,
    timeoutMs: positiveIntSetting(env, 'MODERATION_TIMEOUT_MS', LIMITS.moderation.modelTimeoutMs),
  };
}
