import { connect as connectTcp } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { LIMITS } from '../../worker/platform/limits';
import { joined, next, type RealtimeStack, startRealtimeStack } from '../support/realtime-stack';

// Clients that start with (or keep to) HTTP long-polling: socket.io-client's defaults, and networks that block WebSockets.
// A short ping cadence so a test sees polls ended by pings, pongs posted back, and a silent session closed.
const PING_INTERVAL_MS = 1000;
const PING_TIMEOUT_MS = 1000;

let stack: RealtimeStack;
beforeAll(async () => {
  stack = await startRealtimeStack({
    build: inject('workerBuild'),
    pingIntervalMs: PING_INTERVAL_MS,
    pingTimeoutMs: PING_TIMEOUT_MS,
  });
}, 60_000);
afterAll(() => stack?.stop());

const opened: Socket[] = [];
afterAll(() => {
  for (const socket of opened) socket.disconnect();
});

/** socket.io-client exactly as an app leaves it, but for the test's own reconnection and token. */
function client(namespace: string, token: string, transports?: string[]) {
  const socket = io(`${stack.url}${namespace}`, {
    auth: { token },
    reconnection: false,
    forceNew: true,
    ...(transports ? { transports } : {}),
  });
  opened.push(socket);
  return socket;
}

const post = async (token: string, text: string) => {
  const { status, body } = await stack.api('/feed', { token, body: { text, media: [] } });
  expect(status).toBe(201);
  return body as { _id: string };
};

/** Resolves after the client's manager heard `count` pings from the server. */
const pings = (socket: Socket, count: number) =>
  new Promise<void>((resolve) => {
    let heard = 0;
    socket.io.on('ping', () => {
      if (++heard === count) resolve();
    });
  });

const engine = (path: string, init?: RequestInit) => fetch(`${stack.url}/socket.io/?EIO=4&${path}`, init);
/** A polling answer's packets but the server's own pings ('2', due every second here), which ride along on a busy machine. */
const polledPackets = async (response: Response) =>
  (await response.text()).split('\x1e').filter((packet) => packet !== '2');

/**
 * Sends the start of a POST with Transfer-Encoding: chunked over a raw socket, `chunks` chunks of `size` bytes but
 * never the last chunk, and resolves with what the server answered within `waitMs` (nothing: ''). The body stays
 * unfinished so no write of ours meets the reset of a server that stopped reading, which fetch reports instead of
 * the answer that came before it.
 */
function unfinishedChunkedPost(path: string, size: number, chunks: number, waitMs = 3000) {
  const { port } = new URL(stack.url);
  const socket = connectTcp(Number(port), '127.0.0.1');
  const chunk = Buffer.concat([
    Buffer.from(`${size.toString(16)}\r\n4`),
    Buffer.alloc(size - 1, 'x'),
    Buffer.from('\r\n'),
  ]);
  let answer = '';
  return new Promise<string>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (data) => {
      answer += data.toString();
      if (answer.includes('\r\n\r\n') && answer.endsWith('}')) done();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n`);
    for (let i = 0; i < chunks; i++) socket.write(chunk);
  });
}

describe('Engine.IO long-polling at /socket.io/', () => {
  it('connects a client at its defaults over polling, upgrades it to a WebSocket, and delivers a new post', async () => {
    const [reader, author] = await Promise.all([stack.rider('Reader'), stack.rider('Author')]);
    const socket = client('/feed', reader.token);
    const upgraded = new Promise<string>((resolve) =>
      socket.io.engine.once('upgrade', (t: { name: string }) => resolve(t.name)),
    );
    expect(socket.io.engine.transport.name).toBe('polling');
    await joined(socket);
    expect(await upgraded).toBe('websocket');
    expect(socket.io.engine.transport.name).toBe('websocket');
    const created = next(socket, 'post:created');
    const stored = await post(author.token, 'default client');
    expect((await created).post._id).toBe(stored._id);
  });

  it('keeps a polling-only client connected across ping rounds, delivering posts and acknowledgements', async () => {
    const [reader, author] = await Promise.all([stack.rider('Poller'), stack.rider('Author')]);
    const feed = client('/feed', reader.token, ['polling']);
    const messages = client('/messages', reader.token, ['polling']);
    await Promise.all([joined(feed), joined(messages)]);
    expect(feed.io.engine.transport.name).toBe('polling');
    // Each ping ends a held poll; the client's pong comes back as a POST, so the session lives on.
    await pings(feed, 3);
    expect(feed.connected && messages.connected).toBe(true);
    const created = next(feed, 'post:created');
    const stored = await post(author.token, 'polling client');
    expect((await created).post._id).toBe(stored._id);
    expect(await messages.emitWithAck('typing:start', { conversationId: '0'.repeat(24) })).toEqual({
      error: 'Conversation not found.',
    });
  });

  it('opens a session offering the WebSocket upgrade, whose id routes back to its shard', async () => {
    const res = await engine('transport=polling', { headers: { origin: 'https://app.example' } });
    expect(res.status).toBe(200);
    // A browser app on another origin may read it.
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const open = await res.text();
    expect(open[0]).toBe('0');
    const handshake = JSON.parse(open.slice(1));
    expect(handshake).toEqual({
      sid: expect.stringMatching(/^[0-9a-f]{32}$/),
      upgrades: ['websocket'],
      pingInterval: PING_INTERVAL_MS,
      pingTimeout: PING_TIMEOUT_MS,
      maxPayload: 100_000,
    });
    // A session that never answers a ping is closed pingTimeout after it: the held poll hears the close packet.
    expect(await (await engine(`transport=polling&sid=${handshake.sid}`)).text()).toBe('2');
    expect(await (await engine(`transport=polling&sid=${handshake.sid}`)).text()).toBe('1');
    const gone = await engine(`transport=polling&sid=${handshake.sid}`);
    expect(gone.status).toBe(400);
    expect(await gone.json()).toMatchObject({ details: [{ field: 'sid' }] });
  });

  it('refuses a session id it never issued, a POST without one, and an oversized payload', async () => {
    for (const sid of ['nope', 'f'.repeat(32), '0'.repeat(32)]) {
      const res = await engine(`transport=polling&sid=${sid}`);
      expect(res.status, sid).toBe(400);
      expect(await res.json()).toMatchObject({ details: [{ field: 'sid' }] });
    }
    const unsent = await engine('transport=polling', { method: 'POST', body: '3' });
    expect(unsent.status).toBe(400);
    expect(await unsent.json()).toMatchObject({ details: [{ field: 'sid' }] });
    const { sid } = JSON.parse((await (await engine('transport=polling')).text()).slice(1));
    const large = await engine(`transport=polling&sid=${sid}`, { method: 'POST', body: `4${'x'.repeat(100_001)}` });
    expect(large.status).toBe(413);
    expect((await engine(`transport=polling&sid=${sid}`)).status).toBe(400);
  });

  it('answers a chunked POST with 413 once it passes maxPayload, before the rest of it is even sent', async () => {
    const { sid } = JSON.parse((await (await engine('transport=polling')).text()).slice(1));
    // 2 MB (20 times maxPayload) of a body with no Content-Length and no end: only a capped read can answer it.
    const answer = await unfinishedChunkedPost(`/socket.io/?EIO=4&transport=polling&sid=${sid}`, 64 * 1024, 32);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"details":[{"field":"body","message":"too large"}]');
    expect((await engine(`transport=polling&sid=${sid}`)).status).toBe(400);
  });

  it('refuses a POST to a closed or unknown session without breaking the connection it came on', async () => {
    const { sid } = JSON.parse((await (await engine('transport=polling')).text()).slice(1));
    expect(await (await engine(`transport=polling&sid=${sid}`, { method: 'POST', body: '1' })).text()).toBe('ok');
    // A pong arriving after its session closed (ping timeout, client close) is answered before its body is read.
    for (const gone of [sid, '0'.repeat(32)]) {
      for (let i = 0; i < 10; i++) {
        const res = await engine(`transport=polling&sid=${gone}`, { method: 'POST', body: `3${'x'.repeat(2000)}` });
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ details: [{ field: 'sid' }] });
      }
    }
    expect(stack.output()).not.toContain("Can't read from request stream");
  });
});

describe('bounds on one polling session', () => {
  const openSession = async () => JSON.parse((await (await engine('transport=polling')).text()).slice(1)).sid as string;
  const postTo = (sid: string, body: string) => engine(`transport=polling&sid=${sid}`, { method: 'POST', body });

  it('closes a session that posts more than its queue holds and never polls: 400 naming it, nothing left', async () => {
    const sid = await openSession();
    // Each client ping queues a pong for the next poll, which never comes.
    const pings = `3${'\x1e2'.repeat(LIMITS.realtime.pollQueuePackets + 1)}`;
    const overflowing = await postTo(sid, pings);
    expect(overflowing.status).toBe(400);
    expect(await overflowing.json()).toMatchObject({
      details: [{ field: 'body', message: expect.stringContaining('queued') }],
    });
    const gone = await engine(`transport=polling&sid=${sid}`);
    expect(gone.status).toBe(400);
    expect(await gone.json()).toMatchObject({ details: [{ field: 'sid' }] });
  });

  it('keeps a session that polls what it was sent, however much it posts over time', async () => {
    const sid = await openSession();
    const pings = `3${'\x1e2'.repeat(LIMITS.realtime.pollQueuePackets / 2)}`;
    for (let round = 0; round < 3; round++) {
      expect(await (await postTo(sid, pings)).text()).toBe('ok');
      // A pong for each ping posted.
      expect(await polledPackets(await engine(`transport=polling&sid=${sid}`))).toEqual(
        Array(LIMITS.realtime.pollQueuePackets / 2).fill('3'),
      );
    }
  });

  it('closes a session that connects a namespace it already joined, as Socket.IO does', async () => {
    const { token } = await stack.rider('Twice');
    const sid = await openSession();
    const connect = `40/feed,${JSON.stringify({ token })}`;
    expect(await (await postTo(sid, connect)).text()).toBe('ok');
    expect(await polledPackets(await engine(`transport=polling&sid=${sid}`))).toEqual([
      expect.stringMatching(/^40\/feed,\{"sid"/),
    ]);
    const repeated = await postTo(sid, connect);
    expect(repeated.status).toBe(400);
    expect(await repeated.json()).toMatchObject({ details: [{ field: 'body', message: 'namespace already joined' }] });
    expect((await engine(`transport=polling&sid=${sid}`)).status).toBe(400);
  });

  it('answers two connects of one namespace in one payload once, keeping the session', async () => {
    const { token } = await stack.rider('Eager');
    const sid = await openSession();
    // socket.io-client's, when an app calls connect() on a socket already connecting while the transport polls.
    const connect = `40/messages,${JSON.stringify({ token })}`;
    expect(await (await postTo(sid, `${connect}\x1e${connect}`)).text()).toBe('ok');
    const answered = await polledPackets(await engine(`transport=polling&sid=${sid}`));
    expect(answered).toHaveLength(1);
    expect(answered[0]).toMatch(/^40\/messages,\{"sid"/);
    expect(await (await postTo(sid, '42/messages,["typing:stop",{"conversationId":null}]')).text()).toBe('ok');
  });

  /** Opens a WebSocket naming the polling session: resolves with it once open, or with the status it was refused. */
  const upgrade = (sid: string) =>
    new Promise<{ ws: WebSocket } | { status: number; body: string }>((resolve, reject) => {
      const ws = new WebSocket(`${stack.url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket&sid=${sid}`);
      ws.once('open', () => resolve({ ws }));
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body });
          ws.terminate();
        });
      });
      ws.once('error', reject);
    });

  it('lets one WebSocket take a polling session over: the others naming it are refused with 400 naming sid', async () => {
    const sid = await openSession();
    const attempts = await Promise.all(Array.from({ length: 5 }, () => upgrade(sid)));
    const opened = attempts.flatMap((attempt) => ('ws' in attempt ? [attempt.ws] : []));
    const refused = attempts.flatMap((attempt) => ('status' in attempt ? [attempt] : []));
    expect(opened).toHaveLength(1);
    expect(refused.map((attempt) => attempt.status)).toEqual([400, 400, 400, 400]);
    expect(JSON.parse(refused[0]!.body)).toMatchObject({ details: [{ field: 'sid', message: 'already upgrading' }] });
    // The one that opened upgrades as a client's would: probe, then take the session.
    const ws = opened[0]!;
    const frames: string[] = [];
    ws.on('message', (data) => frames.push(data.toString()));
    const probed = new Promise((resolve) => ws.once('message', resolve));
    ws.send('2probe');
    await probed;
    expect(frames).toEqual(['3probe']);
    ws.send('5');
    ws.send('2');
    await new Promise((resolve) => ws.once('message', resolve));
    expect(frames).toContain('3');
    expect((await upgrade(sid)) as { status: number }).toMatchObject({ status: 400 });
    ws.close();
  });
});
