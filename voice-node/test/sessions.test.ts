import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { CLOSE } from '../src/messages.js';
import type { VoiceBox } from '../src/server.js';
import { LONG_REPLY, startTestBox } from './box.js';
import { pause, processesInGroup, speak, VoiceClient } from './voice-client.js';

let box: VoiceBox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});
const wsUrl = (b: VoiceBox) => `${b.url.replace('http', 'ws')}/ws`;
const health = async (b: VoiceBox) => (await fetch(`${b.url}/health`)).json() as Promise<Record<string, unknown>>;

/** Polls until the group has no live process, up to `ms`; returns what is left. */
async function groupGone(pgid: number, ms = 1000) {
  const deadline = Date.now() + ms;
  while (processesInGroup(pgid).length && Date.now() < deadline) await pause(10);
  return processesInGroup(pgid);
}

describe('barge-in', () => {
  it('stops the audio within 50 ms, emits barge_in_detected for the turn and leaves no espeak-ng or lame', async () => {
    box = await startTestBox();
    const client = new VoiceClient(wsUrl(box));
    const sessionId = await client.ready();
    await speak(box.url, sessionId, LONG_REPLY);
    const turn = await client.next('turn_start');
    await client.next('tts_audio_chunk', 3);
    const pgid = box.sessions.get(sessionId)!.synthesisPid!;
    expect(
      processesInGroup(pgid)
        .map((p) => p.command)
        .sort(),
    ).toEqual(['espeak-ng', 'lame', 'sh']);

    client.send({ type: 'barge-in' });
    const detected = await client.next('barge_in_detected');
    expect(detected).toMatchObject({ turnId: turn.turnId, replyId: turn.replyId, droppedReplies: 0 });
    await pause(600);
    // A chunk already in flight arrives before barge_in_detected; nothing of the reply comes after it.
    expect(client.received.filter((m) => m.at > detected.at)).toEqual([]);
    expect(await groupGone(pgid)).toEqual([]);
    client.close();
  });

  it('drops the queued replies too, and the session speaks the next request afterwards', async () => {
    box = await startTestBox();
    const client = new VoiceClient(wsUrl(box));
    const sessionId = await client.ready();
    await speak(box.url, sessionId, LONG_REPLY);
    await speak(box.url, sessionId, 'Queued one.');
    await client.next('tts_audio_chunk');
    client.send({ type: 'barge-in' });
    expect(await client.next('barge_in_detected')).toMatchObject({ droppedReplies: 1 });
    await speak(box.url, sessionId, 'After the interruption.');
    const next = await client.next('turn_start', 2);
    expect(next.text).toBe('After the interruption.');
    await client.next('turn_end');
    expect(client.of('turn_start').map((m) => m.text)).not.toContain('Queued one.');
    client.close();
  });

  it('is acknowledged with a null turn when nothing is being spoken', async () => {
    box = await startTestBox();
    const client = new VoiceClient(wsUrl(box));
    await client.ready();
    client.send({ type: 'barge-in' });
    expect(await client.next('barge_in_detected')).toMatchObject({ turnId: null, replyId: null, droppedReplies: 0 });
    client.close();
  });
});

describe('session lifetime', () => {
  it('kills the synthesis process group when the client disconnects mid-sentence', async () => {
    box = await startTestBox();
    const client = new VoiceClient(wsUrl(box));
    const sessionId = await client.ready();
    await speak(box.url, sessionId, LONG_REPLY);
    await client.next('tts_audio_chunk', 2);
    const pgid = box.sessions.get(sessionId)!.synthesisPid!;
    expect(processesInGroup(pgid).length).toBeGreaterThan(0);
    client.ws.terminate();
    expect(await groupGone(pgid)).toEqual([]);
  });

  it('counts open sessions in /health and forgets a closed one, whose id then answers 404', async () => {
    box = await startTestBox();
    expect(await health(box)).toMatchObject({ ok: true, sessions: 0, uptime: expect.any(Number) });
    const a = new VoiceClient(wsUrl(box));
    const b = new VoiceClient(wsUrl(box));
    const idA = await a.ready();
    await b.ready();
    expect((await health(box)).sessions).toBe(2);
    a.close();
    await a.closed;
    await pause(50);
    expect((await health(box)).sessions).toBe(1);
    expect((await speak(box.url, idA, 'Anyone there?')).status).toBe(404);
    b.close();
  });

  it('refuses a session beyond the cap with close code 1013 and a reason, and admits one when a slot frees', async () => {
    box = await startTestBox({ maxSessions: 2 });
    const first = new VoiceClient(wsUrl(box));
    const second = new VoiceClient(wsUrl(box));
    await Promise.all([first.ready(), second.ready()]);
    const third = new VoiceClient(wsUrl(box));
    expect(await third.closed).toEqual(CLOSE.tryAgainLater);
    expect(third.of('_ready')).toEqual([]);
    expect((await health(box)).sessions).toBe(2);
    first.close();
    await first.closed;
    await pause(50);
    const fourth = new VoiceClient(wsUrl(box));
    expect(await fourth.ready()).toMatch(/-/);
    second.close();
    fourth.close();
  });

  it('drops a client that stops answering pings, ending its session, and keeps one that answers', async () => {
    box = await startTestBox({ pingIntervalMs: 100 });
    const dead = new VoiceClient(wsUrl(box), { autoPong: false });
    const live = new VoiceClient(wsUrl(box));
    await Promise.all([dead.ready(), live.ready()]);
    expect((await dead.closed).code).toBe(1006);
    await pause(300);
    expect(live.ws.readyState).toBe(live.ws.OPEN);
    expect((await health(box)).sessions).toBe(1);
    live.close();
  });
});

describe('POST /speak/:sessionId', () => {
  it('answers 400 for a non-UUID id, 404 for an unknown session, 413 over the size limit, 400 for no text', async () => {
    box = await startTestBox({ maxSpeakBytes: 64 });
    const client = new VoiceClient(wsUrl(box));
    const sessionId = await client.ready();
    expect((await speak(box.url, 'not-a-uuid', 'hi')).status).toBe(400);
    expect((await speak(box.url, '../health', 'hi')).status).toBe(404);
    expect((await speak(box.url, randomUUID(), 'hi')).status).toBe(404);
    const tooLong = await speak(box.url, sessionId, 'x'.repeat(65));
    expect(tooLong.status).toBe(413);
    expect(await tooLong.json()).toEqual({ error: 'The reply text is limited to 64 bytes.' });
    expect((await speak(box.url, sessionId, '   ')).status).toBe(400);
    const badJson = await fetch(`${box.url}/speak/${sessionId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"reply": "hi"}',
    });
    expect(badJson.status).toBe(400);
    expect((await speak(box.url, sessionId.toUpperCase(), 'Case does not matter.')).status).toBe(202);
    expect((await speak(box.url, sessionId, 'As JSON.', 'application/json')).status).toBe(202);
    client.close();
  });
});

describe('session ids', () => {
  it('keeps the id the Worker names in x-voice-session-id, and mints its own for a taken or malformed one', async () => {
    box = await startTestBox();
    const named = randomUUID();
    const first = new VoiceClient(wsUrl(box), { headers: { 'x-voice-session-id': named } });
    expect(await first.ready()).toBe(named);
    const taken = new VoiceClient(wsUrl(box), { headers: { 'x-voice-session-id': named } });
    expect(await taken.ready()).not.toBe(named);
    const malformed = new VoiceClient(wsUrl(box), { headers: { 'x-voice-session-id': 'mine' } });
    expect(await malformed.ready()).toMatch(/^[0-9a-f-]{36}$/);
    for (const client of [first, taken, malformed]) client.close();
  });
});
