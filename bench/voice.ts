// Voice box figures, run by hand: `npx tsx bench/voice.ts` (needs espeak-ng and lame; prints a table).
// 1. Time from a speak request to the first audio chunk at the client (p50, p95), beside the raw
//    `espeak-ng | lame` first byte measured in the same run.
// 2. How many sessions speak at real time at once: sessions are ramped up, each speaking a reply at the
//    same moment, until chunks arrive later than real-time pacing allows.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { speak, VoiceClient } from '../voice-node/test/voice-client.js';

const SENTENCE = 'Nice one, that kickflip looked really clean from here, want to try it switch next?';
const RUNS = Number(process.env.RUNS ?? 30);
const LEAD_MS = 300;
// A chunk later than its real-time slot by more than this is an audible gap for a client with a 300 ms buffer.
const LATE_MS = 150;

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function rawFirstByte(): Promise<number> {
  return new Promise((resolve) => {
    const start = performance.now();
    const child = spawn('sh', ['-c', 'espeak-ng --stdout | lame --quiet --resample 44.1 -b 128 --cbr -m m - -'], {
      detached: true,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    child.stdin.end(SENTENCE);
    child.stdout.once('data', () => {
      resolve(performance.now() - start);
      process.kill(-child.pid!, 'SIGKILL');
    });
  });
}

async function startBox(port: number): Promise<ChildProcess> {
  const box = spawn(process.execPath, ['--import', 'tsx', 'voice-node/src/main.ts'], {
    env: { ...process.env, VOICE_PORT: String(port), VOICE_MAX_SESSIONS: '10000', VOICE_LEAD_MS: String(LEAD_MS) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => box.stdout!.on('data', (d: Buffer) => /ready/.test(d.toString()) && resolve()));
  return box;
}

/** Speak-to-first-chunk latencies over one session, interrupting each reply once its first chunk is in. */
async function speakLatencies(url: string): Promise<number[]> {
  const client = new VoiceClient(`${url.replace('http', 'ws')}/ws`);
  const sessionId = await client.ready();
  const latencies: number[] = [];
  for (let i = 1; i <= RUNS; i++) {
    const start = performance.now();
    await speak(url, sessionId, SENTENCE);
    const first = await client.next('tts_audio_chunk', client.of('tts_audio_chunk').length + 1);
    latencies.push(first.at - start);
    client.send({ type: 'barge-in' });
    await client.next('barge_in_detected', i);
  }
  client.close();
  return latencies;
}

/** Whether `n` sessions speaking at once all receive every chunk within LATE_MS of its real-time slot. */
async function atRealTime(url: string, n: number): Promise<{ ok: boolean; worstLateMs: number; startP95: number }> {
  const clients = Array.from({ length: n }, () => new VoiceClient(`${url.replace('http', 'ws')}/ws`));
  const ids = await Promise.all(clients.map((c) => c.ready()));
  const reply = `${SENTENCE} ${SENTENCE} ${SENTENCE}`;
  const start = performance.now();
  await Promise.all(ids.map((id) => speak(url, id, reply)));
  await Promise.all(clients.map((c) => c.next('turn_end', 3, 60_000)));
  let worstLateMs = 0;
  const starts: number[] = [];
  for (const client of clients) {
    const chunks = client.of('tts_audio_chunk');
    const first = chunks[0]!.at;
    starts.push(first - start);
    let audioBefore = 0;
    for (const chunk of chunks) {
      // The chunk is due when the audio before it has played down to the lead.
      worstLateMs = Math.max(worstLateMs, chunk.at - (first + Math.max(0, audioBefore - LEAD_MS)));
      audioBefore += chunk.durationMs;
    }
    client.close();
  }
  return { ok: worstLateMs <= LATE_MS, worstLateMs, startP95: pct(starts, 95) };
}

const raw: number[] = [];
for (let i = 0; i < RUNS; i++) raw.push(await rawFirstByte());
const port = await freePort();
const box = await startBox(port);
const url = `http://127.0.0.1:${port}`;
try {
  const latencies = await speakLatencies(url);
  console.log(`runs: ${RUNS}; sentence: ${SENTENCE.split(' ').length} words`);
  console.log(`raw espeak-ng | lame first byte:      p50 ${ms(pct(raw, 50))}, p95 ${ms(pct(raw, 95))}`);
  console.log(`speak request -> first audio chunk:  p50 ${ms(pct(latencies, 50))}, p95 ${ms(pct(latencies, 95))}`);
  let best = 0;
  for (const n of [1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256]) {
    const result = await atRealTime(url, n);
    console.log(
      `${String(n).padStart(4)} sessions at once: worst chunk ${ms(result.worstLateMs)} behind its slot, first chunk p95 ${ms(result.startP95)} ${result.ok ? 'ok' : 'BEHIND'}`,
    );
    if (!result.ok) break;
    best = n;
  }
  console.log(`sessions speaking at real time at once on this machine: ${best}`);
} finally {
  box.kill('SIGTERM');
}
