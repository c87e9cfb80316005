import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { splitFrames } from '../../voice-node/src/mp3-frames.js';
import { speak, VoiceClient } from '../../voice-node/test/voice-client.js';
import { freePort, stopProcess } from './processes';

// Voice as a new user meets it on the local stack (`npm run dev`): a WebSocket to the Worker's /voice/ws,
// a reply spoken into that session, the MP3 written to a file and read back frame by frame.

const scratch = mkdtempSync(join(tmpdir(), 'rider-voice-e2e-'));
let dev: ChildProcess | undefined;
afterAll(async () => {
  await stopProcess(dev, 'SIGINT');
  rmSync(scratch, { recursive: true, force: true });
});

describe('voice on the local stack', () => {
  it('speaks a reply to a WebSocket opened through the Worker, as valid 44.1 kHz 128 kbps MP3', {
    timeout: 120_000,
  }, async () => {
    const [worker, db, voice] = [await freePort(), await freePort(), await freePort()];
    let output = '';
    dev = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], {
      env: {
        ...process.env,
        PORT: String(worker),
        INSPECTOR_PORT: String(await freePort()),
        DB_PORT: String(db),
        VOICE_PORT: String(voice),
        DEVDB_DATA: join(scratch, 'devdb'),
        WRANGLER_STATE: join(scratch, 'wrangler'),
        MONGODB_URI: '',
        VOICE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    dev.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    dev.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 90_000;
    while (!/Ready on http/.test(output) || !/\[voice\] ready/.test(output)) {
      if (Date.now() > deadline || dev.exitCode !== null) throw new Error(`stack did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(output).toContain(`VOICE_URL=http://127.0.0.1:${voice}`);

    const client = new VoiceClient(`ws://127.0.0.1:${worker}/voice/ws`);
    const sessionId = await client.ready();
    const voiceUrl = `http://127.0.0.1:${voice}`;
    expect(await (await fetch(`${voiceUrl}/health`)).json()).toMatchObject({ ok: true, sessions: 1 });
    expect((await speak(voiceUrl, sessionId, 'Hey! Sooo stoked you are here. Wanna ride?')).status).toBe(202);
    await client.next('turn_end', 3);

    const file = join(scratch, 'reply.mp3');
    writeFileSync(file, Buffer.concat(client.of('tts_audio_chunk').map((c) => Buffer.from(c.audio, 'base64'))));
    const { frames, rest } = splitFrames(readFileSync(file));
    expect(rest).toHaveLength(0);
    expect(frames.length).toBeGreaterThan(40);
    expect(new Set(frames.map((f) => `${f.header.layer}/${f.header.sampleRate}/${f.header.bitrate}`))).toEqual(
      new Set(['3/44100/128000']),
    );

    // The client's barge-in travels back through the proxy too.
    await speak(voiceUrl, sessionId, 'This one gets cut off before it ends, because you talk over it.');
    await client.next('tts_audio_chunk', client.of('tts_audio_chunk').length + 1);
    client.send({ type: 'barge-in' });
    expect((await client.next('barge_in_detected')).turnId).toEqual(expect.any(String));
    client.close();

    // Ctrl-C stops the voice box with the rest of the stack.
    await stopProcess(dev, 'SIGINT');
    await expect(fetch(`${voiceUrl}/health`)).rejects.toThrow();
  });
});
