import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { isDemoReply } from '../../../worker/companion/chat/demo';
import worker from '../../../worker/index';
import { register, type TestAccount } from '../../support/accounts';
import { chat, companionApi, sendChat } from '../../support/companion';
import { captureLogLines, eventLines, leakedSecrets } from '../../support/log-lines';
import { setSubscription } from '../../support/spot-lists';
import type { Api } from '../../support/worker-api';

// The offline companion (empty key) with a stand-in voice box (test/support/stand-ins/voice.ts).
const voice = companionApi('companion-voice', { OPENAI_API_KEY: '' });
const { api } = voice;
const SESSION = '6f1c2a9e-3b4d-4c8e-9a1f-0b2c3d4e5f60';

/**
 * One chat through the Worker's fetch handler, its log lines captured: those written by the time the response was
 * in hand, then all of them once its background work is done.
 */
async function chatSpeaking(target: Api, rider: TestAccount, voiceSession: string) {
  const ctx = createExecutionContext();
  const request = new Request('http://rider.test/api/bot-chat/message', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-token': rider.token, 'x-voice-session': voiceSession },
    body: JSON.stringify({ message: 'hey' }),
  });
  let answered = { status: 0, reply: '', linesAtResponse: [] as string[] };
  const lines = await captureLogLines(async (soFar) => {
    const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, target.env, ctx);
    const body = await res.json<{ reply: string }>();
    answered = { status: res.status, reply: body.reply, linesAtResponse: [...soFar] };
    await waitOnExecutionContext(ctx);
  });
  return { ...answered, lines };
}

describe('speaking the reply', () => {
  it('sends the reply to the voice box for a valid session, after the response', async () => {
    await voice.voiceMode('ok');
    const rider = await register(api);
    // Speech is free on premium; on the free plan it costs credits (test/worker/billing/ai-credits-chat.test.ts).
    await setSubscription(api, rider);
    const { reply } = await chat(api, rider, 'hey', { voiceSession: SESSION.toUpperCase() });
    const spoken = await voice.spoken();
    expect(spoken.at(-1)).toEqual({ sessionId: SESSION, body: { text: reply } });
    // The session id, which lets whoever holds it speak into the session, goes in a header: a path is logged.
    const paths = await voice.speakPaths();
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(path.toLowerCase()).not.toContain(SESSION.toLowerCase());
  });

  it('ignores a session header that is not a UUID: no speak request, the same answer', async () => {
    const before = (await voice.spoken()).length;
    const rider = await register(api);
    for (const header of ['../../admin', `${SESSION}/x`, 'not-a-uuid', '']) {
      const res = await chat(api, rider, 'hey', { voiceSession: header });
      expect(res.reply).toBeTruthy();
    }
    expect(await voice.spoken()).toHaveLength(before);
  });

  it('answers the same, without waiting for the voice box, when it fails, is down or never answers', async () => {
    const rider = await register(api);
    await setSubscription(api, rider);
    await voice.voiceMode('ok');
    const baseline = await chatSpeaking(api, rider, SESSION);
    await voice.voiceMode('fail');
    const failing = await chatSpeaking(api, rider, SESSION);
    await voice.voiceMode('hang');
    const hanging = await chatSpeaking(api, rider, SESSION);
    const down = await chatSpeaking(companionApiDown(api), rider, SESSION);
    // What the voice box answered, or that it never did, is logged; the reply it was to speak is not.
    expect(eventLines(failing.lines, 'companion.speak.refused')).toEqual([
      expect.objectContaining({ level: 'warn', status: expect.any(Number) }),
    ]);
    expect(eventLines(hanging.lines, 'companion.speak.failed')).toEqual([
      expect.objectContaining({ level: 'warn', error: expect.any(String) }),
    ]);
    // The response was in hand while the speak request still hung: it never waited for the voice box.
    expect(eventLines(hanging.linesAtResponse, 'companion.speak.failed')).toEqual([]);
    expect(leakedSecrets([...failing.lines, ...hanging.lines], { reply: baseline.reply })).toEqual([]);
    for (const outcome of [failing, hanging, down]) {
      expect(outcome.status).toBe(baseline.status);
      expect(outcome.reply).toBe(baseline.reply);
    }
  });

  it('answers without speaking when no voice box is configured', async () => {
    const quiet = companionApi('companion-voice-quiet', { OPENAI_API_KEY: '', VOICE_URL: undefined });
    const rider = await register(quiet.api);
    expect((await chat(quiet.api, rider, 'hey', { voiceSession: SESSION })).reply).toBeTruthy();
    expect(await quiet.spoken()).toEqual([]);
  });
});

/** Opens a voice session through the Worker's `/voice/ws` (with the rider's token when given) and reads its id from `_ready`. */
async function openVoiceSession(
  target: Api,
  rider?: TestAccount,
  headers: Record<string, string> = {},
): Promise<string> {
  const res = await target.fetch(`/voice/ws${rider ? `?token=${rider.token}` : ''}`, {
    headers: { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-version': '13', ...headers },
  });
  expect(res.status).toBe(101);
  if (headers['sec-websocket-protocol']) expect(res.headers.get('sec-websocket-protocol')).toBe('rider-token');
  const socket = res.webSocket!;
  const ready = new Promise<string>((resolve) => {
    socket.addEventListener('message', (event) => resolve(JSON.parse(event.data as string).sessionId));
  });
  socket.accept();
  const sessionId = await ready;
  socket.close();
  return sessionId;
}

describe('who may speak into a session', () => {
  it("speaks only the owner's replies into a session opened with a token: another rider's answer is spoken: false", async () => {
    await voice.voiceMode('ok');
    const [owner, other] = [await register(api), await register(api)];
    await setSubscription(api, owner);
    await setSubscription(api, other);
    const session = await openVoiceSession(api, owner);
    const intoSession = async () => (await voice.spoken()).filter((s) => s.sessionId === session);

    const foreign = await sendChat(api, other, 'hey', { voiceSession: session });
    expect(foreign.status).toBe(200);
    expect(await foreign.json()).toMatchObject({ spoken: false, reason: 'not-your-session' });
    expect(await intoSession()).toEqual([]);

    const own = await chat(api, owner, 'hey', { voiceSession: session.toUpperCase() });
    expect(own.spoken).toBe(true);
    expect(await intoSession()).toEqual([{ sessionId: session, body: { text: own.reply } }]);
  });

  it('binds a session opened with the token as a WebSocket subprotocol, as a browser sends it, and answers that protocol', async () => {
    await voice.voiceMode('ok');
    const [owner, other] = [await register(api), await register(api)];
    await setSubscription(api, owner);
    await setSubscription(api, other);
    const session = await openVoiceSession(api, undefined, { 'sec-websocket-protocol': `rider-token, ${owner.token}` });
    const foreign = await sendChat(api, other, 'hey', { voiceSession: session });
    expect(await foreign.json()).toMatchObject({ spoken: false, reason: 'not-your-session' });
    expect((await chat(api, owner, 'hey', { voiceSession: session })).spoken).toBe(true);
    const forged = await api.fetch('/voice/ws', {
      headers: {
        ...{ upgrade: 'websocket', connection: 'Upgrade' },
        'sec-websocket-protocol': 'rider-token, not.a.token',
      },
    });
    expect([forged.status, await forged.text()]).toEqual([400, 'Invalid token.']);
  });

  it("speaks any rider's reply into a session opened without a token: the id is the capability", async () => {
    await voice.voiceMode('ok');
    const rider = await register(api);
    await setSubscription(api, rider);
    const session = await openVoiceSession(api);
    const { reply, spoken } = await chat(api, rider, 'hey', { voiceSession: session });
    expect(spoken).toBe(true);
    expect((await voice.spoken()).filter((s) => s.sessionId === session)).toEqual([
      { sessionId: session, body: { text: reply } },
    ]);
  });
});

/** The same Worker and database with the voice box pointing at a port nothing listens on. */
function companionApiDown(target: Api): Api {
  return { ...target, env: { ...target.env, VOICE_URL: 'http://127.0.0.1:9' } };
}

describe('stage demonstrations', () => {
  it('answers an on-stage demo request in the fixed structure', async () => {
    await voice.voiceMode('ok');
    const rider = await register(api);
    const { reply } = await chat(api, rider, 'show me a kickflip', { voiceSession: SESSION });
    expect(isDemoReply(reply)).toBe(true);
    expect(reply).toContain('kickflip');
  });

  it("rebuilds a model's demo that breaks the structure, and keeps one that holds it", async () => {
    const staged = companionApi('companion-voice-stage');
    const rider = await register(staged.api);
    await staged.script({ steps: [{ reply: 'Sure! Kickflips are easy, just pop and flick it!' }] });
    const rebuilt = await chat(staged.api, rider, 'show me a kickflip', { voiceSession: SESSION });
    expect(isDemoReply(rebuilt.reply)).toBe(true);
    const good =
      'Fine, a kickflip. Watch this. Wind up over the bolts. Pop the tail. Spin it with a flick. Land it clean. Seen better.';
    await staged.script({ steps: [{ reply: good }] });
    expect((await chat(staged.api, rider, 'show me a kickflip', { voiceSession: SESSION })).reply).toBe(good);
    const [request] = await staged.requests();
    expect(request!.messages[0]!.content).toContain('"wind up", "pop", "spin", "land"');
  });

  it('answers off stage in the usual register, even when asked for a demo', async () => {
    const rider = await register(api);
    const { reply } = await chat(api, rider, 'show me a kickflip');
    expect(isDemoReply(reply)).toBe(false);
  });
});
