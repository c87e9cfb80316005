import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unstable_readConfig } from 'wrangler';
import WebSocket from 'ws';

// What a hibernating Durable Object is told when a client closes, and what the client then sees,
// over a real TCP connection: the probe (test/support/worker-close-probe.ts) runs in workerd through
// Miniflare at the compatibility date of wrangler.toml, and the client is the `ws` package that
// socket.io-client uses under Node. The test pool cannot drop a connection, so it cannot show 1006.

/** What the probe's `webSocketClose` recorded (`ObservedClose` in the probe). */
interface ObservedClose {
  code: number;
  reason: string;
  wasClean: boolean;
  echoError?: string;
}

/** How the probe answers: the rooms' rule, nothing, or the received code echoed as is. */
type ReplyMode = 'rule' | 'none' | 'echo';

// "Promptly": an answered close takes milliseconds; unanswered, local workerd drops it after about 10 s.
const PROMPT_MS = 5_000;
// Unanswered closes end on the client's own timeout, this fast rather than ws's default 30 s.
const SHORT_CLOSE_TIMEOUT_MS = 500;

const wrangler = unstable_readConfig({ config: fileURLToPath(new URL('../../../wrangler.toml', import.meta.url)) });
let mf: Miniflare | undefined;
let origin: URL;

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('../../support/worker-close-probe.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    external: ['cloudflare:*'],
    write: false,
  });
  mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: bundle.outputFiles[0]!.text,
      compatibilityDate: wrangler.compatibility_date,
      compatibilityFlags: wrangler.compatibility_flags,
      durableObjects: { CLOSE_PROBE: { className: 'CloseProbe', useSQLite: true } },
      host: '127.0.0.1',
      port: 0,
    }),
  );
  origin = await mf.ready;
}, 60_000);

afterAll(() => mf?.dispose());

// ws 8.23 takes `closeTimeout`; @types/ws 8.18 does not list it yet.
type ClientOptions = WebSocket.ClientOptions & { closeTimeout?: number };

/** An open client connection to a fresh probe room. */
async function connect(reply: ReplyMode, options: ClientOptions = {}) {
  const room = crypto.randomUUID();
  const ws = new WebSocket(`ws://${origin.host}/${room}?reply=${reply}`, options);
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { room, ws, closed };
}

/** Resolves with `promise`, or fails if it takes longer than `ms`. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`nothing within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The closes the room's probe recorded, once there is one. */
async function observedCloses(room: string): Promise<ObservedClose[]> {
  const deadline = Date.now() + PROMPT_MS;
  for (;;) {
    const closes = (await (await fetch(new URL(`/${room}`, origin))).json()) as ObservedClose[];
    if (closes.length || Date.now() > deadline) return closes;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('what webSocketClose receives', () => {
  it('is 1005, clean, with no reason when the client closes without a code', async () => {
    const { room, ws, closed } = await connect('rule');
    ws.close();
    await closed;
    expect(await observedCloses(room)).toEqual([{ code: 1005, reason: '', wasClean: true }]);
  });

  it('is 1006, not clean, when the client drops the connection without a close frame', async () => {
    const { room, ws, closed } = await connect('rule');
    ws.terminate();
    expect(await closed).toEqual({ code: 1006, reason: '' });
    // Recorded after answerClose ran, so the rule sent nothing and did not throw.
    expect(await observedCloses(room)).toEqual([
      { code: 1006, reason: 'WebSocket disconnected without sending Close frame.', wasClean: false },
    ]);
  });
});

describe('what the client sees', () => {
  it('gets no reply from the Hibernation API itself: an unanswered codeless close ends in 1006', async () => {
    const { room, ws, closed } = await connect('none', { closeTimeout: SHORT_CLOSE_TIMEOUT_MS });
    ws.close();
    expect(await closed).toEqual({ code: 1006, reason: '' });
    expect(await observedCloses(room)).toEqual([{ code: 1005, reason: '', wasClean: true }]);
  });

  it('gets no reply to a close with a code either, left unanswered', async () => {
    const { ws, closed } = await connect('none', { closeTimeout: SHORT_CLOSE_TIMEOUT_MS });
    ws.close(1000, 'bye');
    expect(await closed).toEqual({ code: 1006, reason: '' });
  });

  it('gets a clean 1000 promptly after a codeless close when the room answers by the rule', async () => {
    const { ws, closed } = await connect('rule');
    ws.close();
    expect(await within(PROMPT_MS, closed)).toEqual({ code: 1000, reason: '' });
  });

  it('gets its own code and reason back promptly when the room answers by the rule', async () => {
    const { ws, closed } = await connect('rule');
    ws.close(4000, 'leaving the ride');
    expect(await within(PROMPT_MS, closed)).toEqual({ code: 4000, reason: 'leaving the ride' });
  });
});

describe('echoing a reserved code from webSocketClose', () => {
  it('throws InvalidAccessError for 1005 and so sends nothing: the client ends in 1006', async () => {
    const { room, ws, closed } = await connect('echo', { closeTimeout: SHORT_CLOSE_TIMEOUT_MS });
    ws.close();
    expect(await closed).toEqual({ code: 1006, reason: '' });
    expect(await observedCloses(room)).toEqual([
      { code: 1005, reason: '', wasClean: true, echoError: 'InvalidAccessError: Invalid WebSocket close code: 1005.' },
    ]);
  });

  it('throws InvalidAccessError for 1006', async () => {
    const { room, ws } = await connect('echo');
    ws.terminate();
    expect(await observedCloses(room)).toEqual([
      {
        code: 1006,
        reason: 'WebSocket disconnected without sending Close frame.',
        wasClean: false,
        echoError: 'InvalidAccessError: Invalid WebSocket close code: 1006.',
      },
    ]);
  });
});
