// What reading a rider's message costs, run by hand: `npx tsx bench/companion-intents.ts` (CHARS=10240, BUDGET_S=30).
// Every pattern a turn applies to the rider's text (plainIntent, moodOf, isSubstantiveTurn, demoRequest) runs on a
// normal message and on hostile ones of CHARS characters. Each hostile input runs in a child process of its own,
// stopped when it overruns BUDGET_S seconds, in batches alternating with batches of the small-talk message (which
// runs every pattern; a request returns at its own), so both see the same machine load. Printed: the median per
// call of each and their ratio; every hostile input must cost at most twice the small talk.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { demoRequest } from '../worker/companion/chat/demo';
import { isSubstantiveTurn, moodOf, plainIntent } from '../worker/companion/chat/intents';

const CHARS = Number(process.env.CHARS ?? 10_240);
const BUDGET_S = Number(process.env.BUDGET_S ?? 30);
/** Calls per timed batch, batches per input: the median of the batches, per call. */
const BATCH = 20;
const BATCHES = 200;

/** Text repeated until it is `CHARS` long with `end` after it. */
const fill = (start: string, unit: string, end = '') =>
  start + unit.repeat(Math.max(0, Math.ceil((CHARS - start.length - end.length) / unit.length))) + end;

const NORMAL: Record<string, string> = {
  'small talk': 'finally landed my first kickflip today, the park was packed and my legs are done',
  request: 'any contests in Barcelona this weekend?',
};

const HOSTILE: Record<string, string> = {
  spaces: fill('', ' '),
  'add + spaces + x': fill('add ', ' ', 'x'),
  'add x + spaces + y': fill('add x', ' ', 'y'),
  'add add add …': fill('', 'add '),
  'add a + spaces + x': fill('add a', ' ', 'x'),
  'spots in x + spaces + y': fill('spots in x', ' ', 'y'),
  'events in + spaces + x': fill('events in ', ' ', 'x'),
  'what is a + spaces + ?': fill('what is a ', ' ', '?'),
  'remember that + spaces + x': fill('remember that ', ' ', 'x'),
  'show me + spaces + x': fill('show me ', ' ', 'x'),
  'show me a kick + spaces + z': fill('show me a kick', ' ', 'z'),
  'do do do …': fill('', 'do '),
  ', do , do …': fill('', ', do '),
  'do x. do x. …': fill('', 'do x. '),
  'do do  do   do …': fill('', 'do do  do   '),
  'i ride + spaces + x': fill('i ride', ' ', 'x'),
  'words, no punctuation': fill('', 'kick flip '),
  letters: fill('', 'a'),
  'tabs and newlines': fill('add ', '\t\n', 'x'),
};

/** What a turn reads from the rider's text (worker/companion/chat/brain.ts and the offline provider). */
function readMessage(message: string): unknown {
  return [plainIntent(message), moodOf(message), isSubstantiveTurn(message, 0), demoRequest(message)];
}

interface Figures {
  /** One call timed on its own: it tells a slow input from a stuck one. */
  first?: number;
  /** Medians per call, in ms. */
  median?: number;
  normal?: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function timeBatch(message: string): number {
  const start = performance.now();
  for (let i = 0; i < BATCH; i++) readMessage(message);
  return (performance.now() - start) / BATCH;
}

/** In the child: the hostile message's first call, then batches of it alternating with batches of the normal one. */
function timeCalls(message: string, report: (figures: Figures) => void) {
  const normal = NORMAL['small talk']!;
  const start = performance.now();
  readMessage(message);
  report({ first: performance.now() - start });
  for (let i = 0; i < 10; i++) {
    timeBatch(message);
    timeBatch(normal);
  }
  const [times, normalTimes] = [[] as number[], [] as number[]];
  for (let b = 0; b < BATCHES; b++) {
    times.push(timeBatch(message));
    normalTimes.push(timeBatch(normal));
  }
  report({ median: median(times), normal: median(normalTimes) });
}

function measure(message: string): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--child'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const figures: Figures = {};
    const timer = setTimeout(() => {
      resolve(figures);
      child.kill('SIGKILL');
    }, BUDGET_S * 1000);
    child.on('message', (report: Figures) => {
      Object.assign(figures, report);
      if (figures.median === undefined) return;
      clearTimeout(timer);
      resolve(figures);
      child.kill();
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.send(message);
  });
}

const us = (ms: number) => `${(ms * 1000).toFixed(2)} µs`;

async function main() {
  console.log(`reading a rider's message: median per call over ${BATCHES} batches of ${BATCH} calls\n`);
  const line = (name: string, message: string, figure: string, rest = '') =>
    console.log(`${name.padEnd(28)} ${String(message.length).padStart(6)} chars ${figure.padStart(16)}${rest}`);
  for (const [name, message] of Object.entries(NORMAL)) line(name, message, us((await measure(message)).median!));
  console.log('');
  let worst = 0;
  let overran = false;
  for (const [name, message] of Object.entries(HOSTILE)) {
    const { first, median, normal } = await measure(message);
    if (median === undefined || normal === undefined) {
      overran = true;
      const one = first === undefined ? `> ${BUDGET_S} s` : `${(first / 1000).toFixed(2)} s`;
      line(name, message, `${one} per call`, '  (stopped: no median within the budget)');
      continue;
    }
    worst = Math.max(worst, median / normal);
    line(name, message, us(median), `  small talk beside it ${us(normal)}  ×${(median / normal).toFixed(2)}`);
  }
  const verdict = overran ? `an input overran ${BUDGET_S} s` : `worst ×${worst.toFixed(2)} of small talk`;
  console.log(`\n${verdict} (the bound is ×2): ${!overran && worst <= 2 ? 'within' : 'OVER'}`);
}

if (process.argv.includes('--child'))
  process.once('message', (message) => timeCalls(message as string, (figures) => process.send!(figures)));
else await main();
