import { env } from 'cloudflare:test';
import { expect } from 'vitest';
import type { TestAccount } from './accounts';
import type { ModelScript, RecordedRequest } from './stand-ins/openai';
import type { VoiceMode } from './stand-ins/voice';
import { type Api, createApi, type TestEnv } from './worker-api';

/** The companion's two chat routes and the store each one writes. */
export const SURFACES = [
  { path: '/api/dm', store: 'dm_messages' },
  { path: '/api/bot-chat/message', store: 'bot_chats' },
] as const;

const standIns = () => (env as TestEnv).STAND_INS_URL;

export function sendChat(
  api: Api,
  account: TestAccount,
  message: string,
  options: { path?: string; voiceSession?: string } = {},
) {
  return api.fetch(options.path ?? '/api/bot-chat/message', {
    method: 'POST',
    headers: {
      'x-auth-token': account.token,
      ...(options.voiceSession !== undefined ? { 'x-voice-session': options.voiceSession } : {}),
    },
    json: { message },
  });
}

/** Sends a message and expects a reply. */
export async function chat(
  api: Api,
  account: TestAccount,
  message: string,
  options: { path?: string; voiceSession?: string } = {},
) {
  const res = await sendChat(api, account, message, options);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json<{ reply: string; messageId: string; stage?: string; spoken?: boolean }>();
}

/** A Worker whose model is the stand-in under its own name (and whose voice box is one too), plus the handles to script them. */
export function companionApi(label: string, overrides: Partial<TestEnv> = {}) {
  const name = `${label}-${crypto.randomUUID().slice(0, 8)}`;
  const api = createApi(label, {
    OPENAI_API_KEY: 'sk-test-stand-in',
    OPENAI_BASE_URL: `${standIns()}/openai/${name}/v1`,
    OPENAI_MODEL: 'gpt-4o-mini',
    VOICE_URL: `${standIns()}/voice/${name}`,
    ...overrides,
  });
  return {
    api,
    async script(script: ModelScript) {
      const res = await fetch(`${standIns()}/openai/${name}`, { method: 'PUT', body: JSON.stringify(script) });
      expect(res.status).toBe(204);
    },
    async requests(): Promise<RecordedRequest[]> {
      return (await fetch(`${standIns()}/openai/${name}/requests`)).json();
    },
    async voiceMode(mode: VoiceMode) {
      const res = await fetch(`${standIns()}/voice/${name}`, { method: 'PUT', body: JSON.stringify({ mode }) });
      expect(res.status).toBe(204);
    },
    async spoken(): Promise<{ sessionId: string; body: { text: string } }[]> {
      return (await fetch(`${standIns()}/voice/${name}/spoken`)).json();
    },
    /** The paths speak requests were sent to. */
    async speakPaths(): Promise<string[]> {
      return (await fetch(`${standIns()}/voice/${name}/paths`)).json();
    },
  };
}
