// What the runtime steps of a message cost workerd (docs/data-path.md): one Durable Object call, caller and object
// together (a Worker calls an object CALLS times one after another, each awaited), in the message path's shapes (no
// arguments, an answer shaped as a rider's directory entry, a delivery's event and riders); making an object's id and
// stub without a call; and writing the request log line to the console. Each step's workerd CPU (from /proc, as the
// message bench reads it) divided by its count; the console lines are dropped unprinted by this process, so what is
// left is the runtime's own write, not a local runner's relay.
// Run: npx tsx bench/runtime-steps.ts   (CALLS=3000, ROUNDS=5; figures are the medians of the rounds)
import { isWorkerd, processSnapshot, treeCpu } from './process-cpu';
import { scriptInWorkerd } from './script-in-workerd';

const CALLS = Number(process.env.CALLS ?? 3000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
/** The id and stub steps run this many times as often as the calls: each is far cheaper, and /proc counts in ticks. */
const LOCAL_FACTOR = 30;

const WORKER = `
import { DurableObject } from 'cloudflare:workers';

const SHARD = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const HEX = 'abcdefabcdefabcdefabcdef';

export class Target extends DurableObject {
  async ping() { return 1; }
  async entry() { return { shards: [SHARD], viewing: [], sockets: { [SHARD]: 1 } }; }
  async deliver(userIds, event, except) { return []; }
}

const event = {
  namespace: '/messages',
  name: 'message:created',
  payload: {
    conversationId: HEX,
    message: {
      _id: HEX, conversationId: HEX, text: 'bench message 12',
      sender: { _id: HEX, name: 'Bench Rider 1', imageUri: null },
      createdAt: new Date().toISOString(), filtered: false,
    },
  },
};
const except = { sid: 's0001' + HEX + 'abcdef12', userId: HEX };
const names = Array.from({ length: 40 }, (_, i) => 'rider-' + i);
// A request line as worker/platform/ops/log-line.ts writes it for a message.
const line = JSON.stringify({
  time: new Date().toISOString(), level: 'info', kind: 'request', requestId: '5f0c2a7e-1b2c-4d3e-9f00-123456789abc', method: 'POST',
  route: '/api/conversations/:id/messages', status: 201, durationMs: 12.3, riderId: HEX, dbMs: 3.2, gatewayMs: 4.1,
  dbCalls: 1,
});

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const step = url.searchParams.get('step');
    const n = Number(url.searchParams.get('n'));
    let kept = 0;
    for (let i = 0; i < n; i++) {
      const name = names[i % names.length];
      if (step === 'await') kept += await Promise.resolve(1);
      else if (step === 'id') kept += env.TARGET.idFromName(name) ? 1 : 0;
      else if (step === 'stub') kept += env.TARGET.get(env.TARGET.idFromName(name)) ? 1 : 0;
      else if (step === 'console') console.log(line);
      else {
        const stub = env.TARGET.get(env.TARGET.idFromName(name));
        if (step === 'ping') kept += await stub.ping();
        else if (step === 'entry') kept += (await stub.entry()).shards.length;
        else kept += (await stub.deliver([HEX], event, except)).length + 1;
      }
    }
    return new Response(String(kept));
  },
};`;

const STEPS = [
  { step: 'await', label: 'an awaited promise, no call (the loop itself)', local: true },
  { step: 'id', label: 'idFromName alone', local: true },
  { step: 'stub', label: 'idFromName and get(), no call', local: true },
  { step: 'console', label: 'the request log line written to the console', local: true },
  { step: 'ping', label: 'a call with no arguments', local: false },
  { step: 'entry', label: "a call answering a rider's directory entry", local: false },
  { step: 'deliver', label: 'a call carrying a message delivery', local: false },
] as const;

const mf = await scriptInWorkerd(WORKER, {
  loader: 'js',
  external: ['cloudflare:workers'],
  durableObjects: { TARGET: 'Target' },
  discardLogs: true,
});
const url = await mf.ready;
const workerdSeconds = () => treeCpu(processSnapshot(), process.pid, isWorkerd).part;

try {
  const perStep = new Map<string, number[]>(STEPS.map(({ step }) => [step, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const { step, local } of STEPS) {
      const n = local ? CALLS * LOCAL_FACTOR : CALLS;
      const before = workerdSeconds();
      await (await mf.dispatchFetch(`${url}?step=${step}&n=${n}`)).text();
      perStep.get(step)!.push(((workerdSeconds() - before) * 1e6) / n);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`workerd CPU per step, caller and object together: medians of ${ROUNDS} rounds of ${CALLS} calls`);
  console.log('| step | µs each |\n|---|---|');
  for (const { step, label } of STEPS) console.log(`| ${label} | ${median(perStep.get(step)!).toFixed(1)} |`);
} finally {
  await mf.dispose();
}
