/**
 * One connection flooding namespace connects, beside a quiet rider on the same shard: a signed-in rider's WebSocket
 * sends FLOOD connect packets (`40/feed,{"token":…}`) at once, and the quiet rider, whose /feed socket shares that
 * shard (REALTIME_SHARDS=1), keeps asking `GET /api/users/me` and receiving `post:created` for another rider's posts.
 * Prints the quiet rider's p50 and worst for each, first WINDOW_MS without the flood, then from the flood's start
 * until it has ended and WINDOW_MS have passed; and what the flooding connection was answered. The goal: the quiet
 * rider's worst during the flood under twice its worst without it.
 * CONTROL=1 sends as many noop frames (`6`) instead of connects, for what that many frames cost a shard by themselves.
 * Each of RUNS rounds measures both windows on the same stack, so a busy machine weighs on both alike; the median of the
 * rounds' ratios is printed last.
 * Run: npx tsx bench/namespace-connect-flood.ts   (FLOOD=3000, WINDOW_MS=10000, RUNS=3; DIRECT=0 serves through wrangler dev
 * instead of the direct runner, scripts/workerd-direct.ts)
 *
 * Measured 2026-12-07 on a 2-core machine shared with other work (docs/data-path.md, Namespace connect flood): median
 * of the rounds' worst during / without, `GET /api/users/me` and `post:created`: before connects were bounded
 * 13.1× and 41.9× (RUNS=3; one post never arrived, 1,501 joins refused as unavailable); after 0.8× and 1.5× (RUNS=5);
 * the control after 2.1× and 1.8× (RUNS=5).
 */
import WebSocket from 'ws';
import { joined, next, startRealtimeStack } from '../test/support/realtime-stack.js';
import { percentile } from './local-stack.js';

const FLOOD = Number(process.env.FLOOD ?? 3000);
const WINDOW_MS = Number(process.env.WINDOW_MS ?? 10_000);
const RUNS = Number(process.env.RUNS ?? 3);
const DIRECT = process.env.DIRECT !== '0';
/** CONTROL=1 floods with as many Engine.IO noop frames instead: what that many frames cost, whatever they carry. */
const CONTROL = process.env.CONTROL === '1';
/** Pauses between one probe's answer and the next, so the quiet rider stays quiet. */
const USERS_ME_GAP_MS = 100;
const POST_GAP_MS = 250;
/** An event not received within this long is counted as lost instead of stalling the run. */
const LOST_AFTER_MS = 20_000;
/** The flood is given up on after this long, answered or not. */
const FLOOD_LIMIT_MS = 180_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One probe: when it started, from the window's start, and how long it took. */
interface Sample {
  at: number;
  ms: number;
}

interface Probes {
  usersMe: Sample[];
  delivered: Sample[];
  lost: number;
  failed: number;
}

const row = (label: string, samples: Sample[]) => {
  const sorted = [...samples].sort((a, b) => a.ms - b.ms);
  const slowest = sorted.at(-1);
  if (!slowest) return `${label}: none answered`;
  const p50 = percentile(
    sorted.map((one) => one.ms),
    50,
  );
  return `${label}: worst ${slowest.ms.toFixed(0)} ms (started at +${slowest.at.toFixed(0)} ms), p50 ${p50.toFixed(0)} ms (${sorted.length})`;
};
const worst = (samples: Sample[]) => Math.max(0, ...samples.map((one) => one.ms));

async function main() {
  console.log(`Starting the stack (${DIRECT ? 'direct runner' : 'wrangler dev'}, one shard)…`);
  const stack = await startRealtimeStack({ direct: DIRECT, logLevel: 'warn', vars: { REALTIME_SHARDS: '1' } });
  try {
    const [quiet, author, flooder] = await Promise.all([
      stack.rider('Quiet'),
      stack.rider('Author'),
      stack.rider('Flooder'),
    ]);
    const feed = await joined(stack.connect('/feed', { auth: { token: quiet.token } }));

    /** Probes the quiet rider's latencies until `until` resolves. */
    const probe = async (until: Promise<unknown>): Promise<Probes> => {
      let done = false;
      void until.then(() => (done = true));
      const windowStart = performance.now();
      const sample = (started: number) => ({ at: started - windowStart, ms: performance.now() - started });
      const found: Probes = { usersMe: [], delivered: [], lost: 0, failed: 0 };
      const usersMe = async () => {
        while (!done) {
          const started = performance.now();
          const status = await stack.api('/users/me', { token: quiet.token }).then(
            (res) => res.status,
            () => 0,
          );
          if (status === 200) found.usersMe.push(sample(started));
          else found.failed++;
          await pause(USERS_ME_GAP_MS);
        }
      };
      const delivered = async () => {
        while (!done) {
          const started = performance.now();
          // Timed as it arrives, which may be before the post's own answer.
          const arrived = next(feed, 'post:created', LOST_AFTER_MS).then(
            () => sample(started),
            () => null,
          );
          const status = await stack.api('/feed', { token: author.token, body: { text: 'probe', media: [] } }).then(
            (res) => res.status,
            () => 0,
          );
          if (status !== 201) found.failed++;
          const received = await arrived;
          if (received) found.delivered.push(received);
          else found.lost++;
          await pause(POST_GAP_MS);
        }
      };
      await Promise.all([usersMe(), delivered()]);
      return found;
    };

    // Warm-up: code not yet compiled, the database connection's first reads.
    await probe(pause(2000));
    const ratios: { usersMe: number; delivered: number }[] = [];
    for (let run = 1; run <= RUNS; run++) {
      console.log(
        `\nRun ${run} of ${RUNS}: ${WINDOW_MS} ms without the flood, then ${FLOOD} ${CONTROL ? 'noop frames' : 'connects'} on one connection…`,
      );
      const quietFigures = await probe(pause(WINDOW_MS));
      const flood = floodConnects(stack.url, flooder.token);
      const floodFigures = await probe(Promise.all([flood, pause(WINDOW_MS)]));
      const outcome = await flood;
      for (const [title, figures] of [
        ['without the flood', quietFigures],
        ['during the flood', floodFigures],
      ] as const) {
        console.log(`  Quiet rider, ${title}:`);
        console.log(`    ${row('GET /api/users/me', figures.usersMe)}`);
        console.log(`    ${row('post:created received', figures.delivered)}`);
        console.log(`    lost events: ${figures.lost}, failed requests: ${figures.failed}`);
      }
      // A lost event took LOST_AFTER_MS at least.
      const worstDelivery = (figures: Probes) => Math.max(worst(figures.delivered), figures.lost ? LOST_AFTER_MS : 0);
      const ratio = {
        usersMe: worst(floodFigures.usersMe) / worst(quietFigures.usersMe),
        delivered: worstDelivery(floodFigures) / worstDelivery(quietFigures),
      };
      ratios.push(ratio);
      console.log(
        `  Worst during / without: GET /api/users/me ${ratio.usersMe.toFixed(1)}×, post:created ${ratio.delivered.toFixed(1)}×`,
      );
      console.log(
        `  The flooding connection: ${outcome.joined} joined, ${outcome.refused} refused ` +
          `(${[...outcome.reasons].join('; ') || 'none'}), ${outcome.unanswered} unanswered; ` +
          `${outcome.closedWith === null ? 'still open' : `closed with ${outcome.closedWith}`} after ${outcome.ms.toFixed(0)} ms`,
      );
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    console.log(
      `\nMedian of ${RUNS} runs, worst during / without: GET /api/users/me ` +
        `${median(ratios.map((one) => one.usersMe)).toFixed(1)}×, post:created ${median(ratios.map((one) => one.delivered)).toFixed(1)}×`,
    );
    feed.disconnect();
  } finally {
    await stack.stop();
  }
}

/**
 * Opens a raw WebSocket, sends `count` connect packets for /feed at once, and resolves once each was answered or the
 * connection closed.
 */
async function floodConnects(url: string, token: string, count = FLOOD) {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`);
  const outcome = {
    joined: 0,
    refused: 0,
    unanswered: count,
    reasons: new Set<string>(),
    closedWith: null as number | null,
    ms: 0,
  };
  const opened = new Promise((resolve, reject) => {
    ws.once('message', resolve);
    ws.once('error', reject);
  });
  await opened;
  const started = performance.now();
  await new Promise<void>((resolve) => {
    let ended = false;
    const end = () => {
      ended = true;
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(end, FLOOD_LIMIT_MS);
    ws.on('message', (data) => {
      const frame = data.toString();
      // The control's last frame is a ping: its pong says every frame before it was handled.
      if (CONTROL && frame === '3') return end();
      if (frame.startsWith('40/feed,')) outcome.joined++;
      else if (frame.startsWith('44/feed,')) {
        outcome.refused++;
        outcome.reasons.add(JSON.parse(frame.slice('44/feed,'.length)).message);
      } else return;
      if (--outcome.unanswered === 0) end();
    });
    ws.on('close', (code) => {
      if (ended) return;
      outcome.closedWith = code;
      end();
    });
    const packet = CONTROL ? '6' : `40/feed,${JSON.stringify({ token })}`;
    for (let i = 0; i < count; i++) ws.send(packet);
    if (CONTROL) ws.send('2');
  });
  outcome.ms = performance.now() - started;
  ws.terminate();
  return outcome;
}

await main();
process.exit(0);
