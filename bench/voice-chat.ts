// The whole spoken-reply path on the local stack, run by hand: `npx tsx bench/voice-chat.ts`.
// A rider holds a WebSocket on the Worker's /voice/ws and chats with `x-voice-session`; measured is the
// time from the chat response arriving to the first audio chunk of the reply (p50, p95), beside the raw
// `espeak-ng | lame` first byte of the same reply text measured in the same run.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { freePort, stopProcess } from '../test/e2e/processes.js';

const RUNS = Number(process.env.RUNS ?? 30);

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

function rawFirstByte(text: string): Promise<number> {
  return new Promise((resolve) => {
    const start = performance.now();
    const child = spawn('sh', ['-c', 'espeak-ng --stdout | lame --quiet --resample 44.1 -b 128 --cbr -m m - -'], {
      detached: true,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    child.stdin.end(text);
    child.stdout.once('data', () => {
      resolve(performance.now() - start);
      process.kill(-child.pid!, 'SIGKILL');
    });
  });
}

/** `npm run dev` on scratch ports and folders; resolves with its log once the Worker is ready. */
async function startStack(ports: { worker: number; db: number; voice: number }, dir: string) {
  const child = spawn('npm', ['run', 'dev'], {
    env: {
      ...process.env,
      PORT: String(ports.worker),
      DB_PORT: String(ports.db),
      VOICE_PORT: String(ports.voice),
      DEVDB_DATA: join(dir, 'devdb'),
      WRANGLER_STATE: join(dir, 'wrangler'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (/Ready on/.test(log)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`npm run dev exited with ${code}:\n${log}`)));
  });
  return { child, log: () => log };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'rider-voice-chat-'));
  const ports = { worker: await freePort(), db: await freePort(), voice: await freePort() };
  console.log('Starting the local stack (npm run dev)…');
  let stack: { child: ChildProcess; log: () => string } | undefined;
  try {
    stack = await startStack(ports, dir);
    const base = `http://127.0.0.1:${ports.worker}`;
    const password = /rider: rider@rider\.local \/ (\S+)/.exec(stack.log())![1];
    const signIn = await fetch(`${base}/api/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'rider@rider.local', password }),
    });
    const { token } = (await signIn.json()) as { token: string };

    const ws = new WebSocket(`ws://127.0.0.1:${ports.worker}/voice/ws`);
    let onChunk: () => void = () => undefined;
    let sessionId = '';
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { type: string; sessionId?: string };
      if (message.type === '_ready') sessionId = message.sessionId!;
      if (message.type === 'tts_audio_chunk') onChunk();
    });
    while (!sessionId) await new Promise((resolve) => setTimeout(resolve, 10));

    const afterResponse: number[] = [];
    const raw: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let responded = 0;
      const firstChunk = new Promise<number>((resolve) => {
        onChunk = () => {
          onChunk = () => undefined;
          resolve(performance.now());
        };
      });
      const res = await fetch(`${base}/api/bot-chat/message`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-auth-token': token, 'x-voice-session': sessionId },
        body: JSON.stringify({ message: 'hey, how is it going?' }),
      });
      const { reply } = (await res.json()) as { reply: string };
      responded = performance.now();
      afterResponse.push((await firstChunk) - responded);
      // Cut the rest of the reply so the next run starts on a quiet session.
      ws.send(JSON.stringify({ type: 'barge-in' }));
      await new Promise((resolve) => setTimeout(resolve, 100));
      raw.push(await rawFirstByte(reply));
    }
    ws.close();

    console.log(`\nChat response to first audio chunk, ${RUNS} replies (Worker + voice box on the local stack)`);
    console.log(`  through the service: p50 ${ms(pct(afterResponse, 50))}, p95 ${ms(pct(afterResponse, 95))}`);
    console.log(`  raw espeak-ng | lame first byte: p50 ${ms(pct(raw, 50))}, p95 ${ms(pct(raw, 95))}`);
    console.log(`  ratio at p50: ${(pct(afterResponse, 50) / pct(raw, 50)).toFixed(1)}×`);
  } finally {
    if (stack) {
      process.kill(-stack.child.pid!, 'SIGINT');
      await stopProcess(stack.child);
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
