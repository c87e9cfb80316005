import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitFrames } from '../src/mp3-frames.js';
import type { VoiceBox } from '../src/server.js';
import { startTestBox } from './box.js';
import { speak, VoiceClient } from './voice-client.js';

let box: VoiceBox;
beforeAll(async () => {
  box = await startTestBox();
});
afterAll(() => box.close());

const wsUrl = () => `${box.url.replace('http', 'ws')}/ws`;

describe('speaking a reply', () => {
  it('sends _ready with a UUID first, then per sentence turn_start, tts_start, chunks, tts_end, turn_end', async () => {
    const client = new VoiceClient(wsUrl());
    const sessionId = await client.ready();
    expect(client.received[0]).toMatchObject({ type: '_ready' });
    expect(sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    expect((await speak(box.url, sessionId, 'Sooo coool!!! Watch this.')).status).toBe(202);
    await client.next('turn_end', 2);
    const types = client.received.map((m) => m.type);
    const squeezed = types.filter((type, i) => type !== 'tts_audio_chunk' || types[i - 1] !== 'tts_audio_chunk');
    expect(squeezed).toEqual([
      '_ready',
      'emotion_state',
      ...['turn_start', 'tts_start', 'tts_audio_chunk', 'tts_end', 'turn_end'],
      ...['turn_start', 'tts_start', 'tts_audio_chunk', 'tts_end', 'turn_end'],
    ]);
    expect(client.of('turn_start').map((m) => [m.role, m.index, m.text])).toEqual([
      ['assistant', 0, 'So cool!'],
      ['assistant', 1, 'Watch this.'],
    ]);
    expect(client.of('emotion_state')[0]).toMatchObject({ emotion: 'excited' });
    client.close();
  });

  it('takes the session from x-voice-session-id on POST /speak, as the Worker sends it, keeping it out of the path', async () => {
    const client = new VoiceClient(wsUrl());
    const sessionId = await client.ready();
    const res = await fetch(`${box.url}/speak`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-voice-session-id': sessionId },
      body: 'Clean line.',
    });
    expect(res.status).toBe(202);
    await client.next('turn_end');
    expect(client.of('turn_start').map((m) => m.text)).toEqual(['Clean line.']);
    const none = await fetch(`${box.url}/speak`, { method: 'POST', body: 'Nobody.' });
    expect(none.status).toBe(400);
    client.close();
  });

  it('streams MP3 whose every frame is MPEG-1 Layer III, 44.1 kHz, 128 kbps, tagged with its turn id', async () => {
    const client = new VoiceClient(wsUrl());
    const sessionId = await client.ready();
    await speak(box.url, sessionId, 'Nice, that kickflip was clean.', 'application/json');
    const end = await client.next('tts_end');
    const turn = (await client.next('turn_start')).turnId;
    const chunks = client.of('tts_audio_chunk');
    expect(chunks.map((c) => c.turnId)).toEqual(chunks.map(() => turn));
    expect(chunks.map((c) => c.seq)).toEqual(chunks.map((_, i) => i));
    expect(end).toMatchObject({ turnId: turn, chunks: chunks.length });

    const audio = Buffer.concat(chunks.map((c) => Buffer.from(c.audio, 'base64')));
    const { frames, rest } = splitFrames(audio);
    expect(rest).toHaveLength(0);
    expect(frames.length).toBeGreaterThan(20);
    // Every frame starts exactly where the previous one ended: nothing but frames was sent.
    expect(frames.reduce((sum, f) => sum + f.bytes.length, 0)).toBe(audio.length);
    for (const { header } of frames) {
      expect(header).toMatchObject({ version: 1, layer: 3, sampleRate: 44_100, bitrate: 128_000, channelMode: 'mono' });
    }
    const playMs = frames.reduce((sum, f) => sum + f.header.durationMs, 0);
    expect(Math.abs(end.durationMs - playMs)).toBeLessThan(1);
    client.close();
  });

  it('streams a long sentence as many chunks, numbered in order, ending with tts_end (pacing: session-pacing.test.ts)', async () => {
    const client = new VoiceClient(wsUrl());
    const sessionId = await client.ready();
    await speak(box.url, sessionId, 'Keep your shoulders over the board the whole way down the ramp, and breathe.');
    const end = await client.next('tts_end');
    const chunks = client.of('tts_audio_chunk');
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.map((c) => c.seq)).toEqual(chunks.map((_, i) => i));
    expect(Math.abs(chunks.reduce((sum, c) => sum + c.durationMs, 0) - end.durationMs)).toBeLessThan(1);
    expect(client.received.indexOf(end)).toBeGreaterThan(client.received.indexOf(chunks.at(-1)!));
    client.close();
  });

  it('queues a second reply behind the one being spoken, in the order received', async () => {
    const client = new VoiceClient(wsUrl());
    const sessionId = await client.ready();
    expect((await speak(box.url, sessionId, 'First reply here. Two sentences.')).status).toBe(202);
    await client.next('tts_audio_chunk');
    expect((await speak(box.url, sessionId, 'Second reply.')).status).toBe(202);
    await client.next('turn_end', 3);
    const replies = client.of('emotion_state').map((m) => m.replyId);
    expect(replies).toHaveLength(2);
    expect(client.of('turn_start').map((m) => [m.text, replies.indexOf(m.replyId)])).toEqual([
      ['First reply here.', 0],
      ['Two sentences.', 0],
      ['Second reply.', 1],
    ]);
    const secondStart = client.received.findIndex((m) => m.type === 'emotion_state' && m.replyId === replies[1]);
    const lastOfFirst = client.received.findLastIndex((m) => m.type === 'turn_end' && m.replyId === replies[0]);
    expect(secondStart).toBeGreaterThan(lastOfFirst);
    client.close();
  });

  it('answers an invalid client message with an error event and keeps the session', async () => {
    const client = new VoiceClient(wsUrl());
    const sessionId = await client.ready();
    client.ws.send('not json');
    client.send({ type: 'dance' });
    expect((await client.next('error', 2)).error).toMatch(/barge-in/);
    expect((await speak(box.url, sessionId, 'Still here.')).status).toBe(202);
    await client.next('turn_end');
    client.close();
  });
});
