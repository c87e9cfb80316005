// What the word filter costs per post of 2,000 characters inside workerd, run by hand: `npx tsx bench/word-filter.ts`.
// The filter (worker/moderation/word-filter/matching.ts) is bundled into a Worker that runs it on RUNS posts per
// request. workerd's clock does not move during pure computation, so each figure is a request's wall time less that
// of a request doing the same with no filtering, divided by RUNS: the median of ROUNDS rounds, each round timing the
// request with no filtering just before, so both see the same machine load. The baseline, timed the same way in the
// same run, is obscenity's matcher as it comes (its English list and recommended transformers): the figures' ratios to
// it hold on a busy machine, where the absolute ones do not.
import { scriptInWorkerd } from './script-in-workerd';

const RUNS = 200;
const ROUNDS = 15;
const CHARS = 2000;

const WORKER = `
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import { buildWordFilter } from './worker/moderation/word-filter/matching';
const library = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
const adminTerms = Array.from({ length: 200 }, (_, i) => ({ term: 'listedterm' + i, kind: 'block', match: 'word' }));
const filters = { builtIn: buildWordFilter([]), withTerms: buildWordFilter(adminTerms) };
export default {
  async fetch(request) {
    const { op, posts, runs } = await request.json();
    let hits = 0;
    for (let i = 0; i < runs; i++) {
      const post = posts[i % posts.length];
      if (op === 'baseline') hits += library.hasMatch(post) ? 1 : 0;
      else if (op === 'build') hits += buildWordFilter(adminTerms) ? 1 : 0;
      else if (op !== 'none') hits += filters[op].matches(post) ? 1 : 0;
    }
    return Response.json({ hits });
  },
};`;

/** Rider prose, varied so no two posts are the same, cut or filled to CHARS characters with `end` last. */
function post(seed: number, end = '', start = ''): string {
  const lines = [
    'Rode the bowl all afternoon, carved the deep end and slammed twice on the hip.',
    'Backside smith on the hubba, then a switch heelflip that was filthy, send it!',
    'Pow day at the resort: first chair, freshies in the trees, a yard sale on the groomer.',
    'The DIY got a new quarter pipe; the coping is sketchy but the transition is butter.',
    'Got smoked by the wind on the lake, hucked a raley and ate it hard, still stoked.',
    `Session ${seed}: 50-50, 5-0, nosegrind, crooked grind, nollie flip, boardslide, bomb drop.`,
  ];
  let text = start;
  for (let i = seed; text.length < CHARS; i++) text += `${lines[i % lines.length]} `;
  return text.slice(0, CHARS - end.length) + end;
}

const CASES: Record<string, { op: string; posts: string[] }> = {
  'clean post (every pattern runs to the end)': { op: 'builtIn', posts: [0, 1, 2, 3].map((s) => post(s)) },
  'clean post naming Penistone (an allowed word)': {
    op: 'builtIn',
    posts: [0, 1, 2, 3].map((s) => post(s, '', 'Penistone DIY. ')),
  },
  'clean post, 200 admin terms listed': { op: 'withTerms', posts: [0, 1, 2, 3].map((s) => post(s)) },
  'bad word at the very end': { op: 'builtIn', posts: [0, 1, 2, 3].map((s) => post(s, ' sh1t')) },
  'spelled out at the end (f u c k)': { op: 'builtIn', posts: [0, 1, 2, 3].map((s) => post(s, ' f u c k')) },
  'every word one letter (a b c d …)': { op: 'builtIn', posts: ['a b c d e f g h '.repeat(CHARS / 16)] },
};

const mf = await scriptInWorkerd(WORKER, { loader: 'ts' });

async function wall(op: string, posts: string[], runs = RUNS): Promise<number> {
  const body = JSON.stringify({ op, posts, runs });
  const started = performance.now();
  const res = await mf.dispatchFetch('http://bench/', { method: 'POST', body });
  await res.json();
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Milliseconds per call of `op` over the posts: request wall time less a request that only reads them. */
async function perCall(op: string, posts: string[], runs = RUNS): Promise<number> {
  const figures: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const none = await wall('none', posts, runs);
    figures.push((await wall(op, posts, runs)) - none);
  }
  return Math.max(0, median(figures)) / runs;
}

// Warm-up: the isolate's first requests compile the code.
for (const { op, posts } of Object.values(CASES)) await perCall(op, posts, 20);
const clean = CASES['clean post (every pattern runs to the end)']!.posts;
const baseline = await perCall('baseline', clean);
console.log(`word filter in workerd, per post of ${CHARS} characters (median of ${ROUNDS} rounds of ${RUNS} posts)`);
console.log(`${"baseline: obscenity's matcher as it comes".padEnd(46)} ${(baseline * 1000).toFixed(1).padStart(8)} µs`);
for (const [name, { op, posts }] of Object.entries(CASES)) {
  const ms = await perCall(op, posts);
  const ratio = baseline > 0 ? `  ×${(ms / baseline).toFixed(1)} the baseline` : '';
  console.log(`${name.padEnd(46)} ${(ms * 1000).toFixed(1).padStart(8)} µs${ratio}`);
}
const building = await perCall('build', clean, 5);
console.log(
  `${'building the filter (200 admin terms; once per 30 s)'.padEnd(46)} ${building.toFixed(2).padStart(8)} ms`,
);
console.log('goal: under 1 ms per post');
await mf.dispose();
