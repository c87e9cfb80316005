// How much CPU one password sign-in costs inside workerd: bcrypt.compare at cost 10 (the
// service's password check) and bcrypt.hash at cost 10 (registration), each timed inside a
// single request with no I/O, so wall time in the isolate is CPU time.
// Run: npx tsx bench/sign-in-cpu.ts
import { scriptInWorkerd } from './script-in-workerd';

const WORKER = `
import bcrypt from 'bcryptjs';
export default {
  async fetch(request) {
    const { op, hash } = await request.json();
    const started = performance.now();
    const result = op === 'hash' ? await bcrypt.hash('correct horse battery', 10) : await bcrypt.compare('correct horse battery', hash);
    return Response.json({ ms: performance.now() - started, result });
  },
};`;

const mf = await scriptInWorkerd(WORKER, { loader: 'js', external: ['crypto'] });

async function call(op: 'hash' | 'compare', hash?: string) {
  const res = await mf.dispatchFetch('http://bench/', { method: 'POST', body: JSON.stringify({ op, hash }) });
  return (await res.json()) as { ms: number; result: string | boolean };
}

// workerd freezes timers during pure computation; if the figures read 0 the wall clock of
// the request is used instead.
async function measure(op: 'hash' | 'compare', hash: string | undefined, runs: number) {
  const inside: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const { ms } = await call(op, hash);
    wall.push(performance.now() - started);
    inside.push(ms);
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { inside: median(inside), wall: median(wall) };
}

const { result: hash } = await call('hash');
await measure('compare', hash as string, 3);
const baselineStart = performance.now();
for (let i = 0; i < 20; i++)
  await mf.dispatchFetch('http://bench/', {
    method: 'POST',
    body: '{"op":"compare","hash":"$2a$04$invalidinvalidinvalidinvalidinvalidinvalidinvalidinva"}',
  });
const overhead = (performance.now() - baselineStart) / 20;
const compare = await measure('compare', hash as string, 15);
const hashing = await measure('hash', undefined, 15);
console.log(`request overhead (cost-4 compare round trip): ${overhead.toFixed(1)} ms`);
console.log(
  `bcrypt.compare cost 10 in workerd: ${compare.inside.toFixed(1)} ms measured inside, ${compare.wall.toFixed(1)} ms request wall time (median of 15)`,
);
console.log(
  `bcrypt.hash    cost 10 in workerd: ${hashing.inside.toFixed(1)} ms measured inside, ${hashing.wall.toFixed(1)} ms request wall time (median of 15)`,
);
await mf.dispose();
