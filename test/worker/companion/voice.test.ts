import { describe, expect, it } from 'vitest';
import { voiceInstanceName } from '../../../worker/companion/voice/service';
import { register } from '../../support/accounts';
import { captureLogLines, eventLines } from '../../support/log-lines';
import { createApi } from '../../support/worker-api';

// Nothing listens on port 1: a proxy that got past its checks answers 502, which proves it let the request through.
const NOWHERE = 'http://127.0.0.1:1';
const UPGRADE = { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-version': '13' };

describe('GET /voice/ws', () => {
  it('answers 503 naming VOICE_URL when the deployment has no voice box', async () => {
    const api = createApi('voice_unset', { VOICE_URL: undefined, VOICE_INSTANCES: undefined });
    const res = await api.fetch('/voice/ws', { headers: UPGRADE });
    expect(res.status).toBe(503);
    expect((await res.json<{ error: string }>()).error).toMatch(/VOICE_URL/);
  });

  it('refuses a plain GET that is not a WebSocket upgrade', async () => {
    const api = createApi('voice_plain', { VOICE_URL: NOWHERE });
    const res = await api.fetch('/voice/ws');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ details: [{ field: 'upgrade' }] });
  });

  it('answers 502 when the voice box does not answer, and needs no token by default', async () => {
    const api = createApi('voice_down', { VOICE_URL: NOWHERE });
    let res = new Response();
    const lines = await captureLogLines(async () => {
      res = await api.fetch('/voice/ws', { headers: UPGRADE });
    });
    expect(res.status).toBe(502);
    expect(eventLines(lines, 'voice.box.unreachable')).toEqual([
      expect.objectContaining({
        level: 'error',
        error: expect.any(String),
        requestId: res.headers.get('x-request-id'),
      }),
    ]);
  });

  it('refuses a token that does not verify even when tokens are optional, rather than open an unbound session', async () => {
    const api = createApi('voice_bad_token', { VOICE_URL: NOWHERE });
    const forged = await api.fetch('/voice/ws?token=not.a.token', { headers: UPGRADE });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toBe('Invalid token.');
    const header = await api.fetch('/voice/ws', { headers: { ...UPGRADE, 'x-auth-token': 'not.a.token' } });
    expect(header.status).toBe(400);
  });

  describe('with VOICE_WS_AUTH=required', () => {
    const api = createApi('voice_auth', { VOICE_URL: NOWHERE, VOICE_WS_AUTH: 'required' });

    it('refuses an upgrade without a token with 401, and with a forged one with 400', async () => {
      const none = await api.fetch('/voice/ws', { headers: UPGRADE });
      expect(none.status).toBe(401);
      expect(await none.text()).toBe('Access denied. No token provided.');
      const forged = await api.fetch('/voice/ws?token=not.a.token', { headers: UPGRADE });
      expect(forged.status).toBe(400);
      expect(await forged.text()).toBe('Invalid token.');
    });

    it('lets a rider through with the token in the query or in x-auth-token', async () => {
      const rider = await register(api);
      // Through the check to the voice box, which is nowhere: 502, and the unreachable box is logged.
      const lines = await captureLogLines(async () => {
        expect((await api.fetch(`/voice/ws?token=${rider.token}`, { headers: UPGRADE })).status).toBe(502);
        const header = await api.fetch('/voice/ws', { headers: { ...UPGRADE, 'x-auth-token': rider.token } });
        expect(header.status).toBe(502);
      });
      expect(eventLines(lines, 'voice.box.unreachable')).toHaveLength(2);
    });
  });

  it('refuses an unknown VOICE_WS_AUTH value by name instead of guessing', async () => {
    const api = createApi('voice_bad_auth', { VOICE_URL: NOWHERE, VOICE_WS_AUTH: 'yes' });
    const res = await api.fetch('/voice/ws', { headers: UPGRADE });
    expect(res.status).toBe(500);
    expect((await res.json<{ error: string }>()).error).toMatch(/VOICE_WS_AUTH/);
  });
});

describe('container routing', () => {
  it('names the same instance for a session id every time, and spreads ids over every instance', () => {
    const id = crypto.randomUUID();
    expect(voiceInstanceName(id, 4)).toBe(voiceInstanceName(id, 4));
    expect(voiceInstanceName('00000007-0000-4000-8000-000000000000', 4)).toBe('voice-3');
    const names = new Set(Array.from({ length: 200 }, () => voiceInstanceName(crypto.randomUUID(), 4)));
    expect(names).toEqual(new Set(['voice-0', 'voice-1', 'voice-2', 'voice-3']));
  });
});
