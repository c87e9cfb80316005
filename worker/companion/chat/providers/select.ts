import { positiveIntSetting } from '../../../platform/config';
import type { Env } from '../../../platform/env';
import { LIMITS } from '../../../platform/limits';
import { offlineProvider } from './offline';
import { DEFAULT_OPENAI_MODEL, openAiProvider } from './openai';
import type { ModelProvider } from './types';

/** The configured model: OpenAI-compatible when OPENAI_API_KEY is set, else the offline companion. */
export function modelProvider(env: Env): ModelProvider {
  const apiKey = env.OPENAI_API_KEY?.trim();
  if (!apiKey) return offlineProvider();
  return openAiProvider({
    apiKey,
    baseURL: env.OPENAI_BASE_URL?.trim() || undefined,
    model: env.OPENAI_MODEL?.trim() || DEFAULT_OPENAI_MODEL,
    timeoutMs: positiveIntSetting(env, 'OPENAI_TIMEOUT_MS', LIMITS.companion.modelTimeoutMs),
  });
}
