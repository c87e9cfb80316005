import { DurableObject } from 'cloudflare:workers';
import { type CounterSnapshot, ObjectCounters } from './object-counters';
import {
  type ClientEvent,
  isNamespace,
  type Namespace,
  parseClientEvent,
  type RelayedClientEvent,
  type ServerEvent,
} from './realtime-events';
import type { ShardFigure } from './shard-figures';
import {
  changeViewing,
  type EndedTokens,
  type NamespaceSession,
  type SocketAttachment,
  type SocketIdentity,
  tokenEnded,
} from './socket-attachment';
import { answerClose } from './socket-close';
import { admitConnect } from './socket-connects';
import {
  ackFrame,
  CLOSE_FRAME,
  connectErrorFrame,
  connectedFrame,
  eventFrame,
  frameBytes,
  isConnectFrame,
  NOOP_FRAME,
  openFrame,
  type Packet,
  PacketType,
  PING_FRAME,
  PONG_FRAME,
  PROBE_ANSWER_FRAME,
  PROBE_FRAME,
  readFrame,
  UPGRADE_FRAME,
} from './socket-io-frames';
import type { Link } from './socket-link';
import { PAYLOAD_SEPARATOR, PollingSession } from './socket-polling';
import { newSessionId, newSocketId, SHARD_HEADER, shardOfSession } from './socket-session-id';
import { attachmentOf, storeAttachment, webSocketLink } from './socket-websocket';
import { type TypingEntry, TypingLedger } from './typing-ledger';

/** The timings a shard announces and keeps (worker/platform/limits.ts `LIMITS.realtime`, settings may override). */
export interface RoomSettings {
  pingIntervalMs: number;
  pingTimeoutMs: number;
  maxPayloadBytes: number;
  typingTtlMs: number;
  /** Sessions held before a new one is refused (503 with Retry-After of shardFullRetryAfterSeconds). */
  sessionsPerShard: number;
  shardFullRetryAfterSeconds: number;
  /** A session that joined no namespace this long after its handshake is closed. */
  connectTimeoutMs: number;
  /** Namespace connect packets one connection may send per window before it is closed. */
  connectsPerConnection: number;
  connectWindowMs: number;
  /** What a polling session may have queued for its next poll before it is closed. */
  pollQueuePackets: number;
  pollQueueBytes: number;
}

type Joined = { link: Link; nsp: Namespace; sid: string; userId: string };

// When the next ping round is due, kept in storage across wake-ups.
const PING_DUE_KEY = 'pingDueAt';
// When the sockets pinged last must have answered (the round's time + pingTimeout); absent between checks.
const PONG_CHECK_KEY = 'pongCheckAt';
// An alarm may fire a little early or late; a ping round this close to due is taken now.
const ALARM_SLACK_MS = 50;

const newId = () => crypto.randomUUID().replaceAll('-', '');
/**
 * The 101 answer to a socket: it accepts no extension the client offers, so the runtime negotiates no
 * permessage-deflate. Frames are a few hundred bytes, and deflating each per socket (with a compression
 * context held per socket) cost more than the broadcast itself.
 */
const switchTo = (client: WebSocket) =>
  new Response(null, { status: 101, webSocket: client, headers: { 'Sec-WebSocket-Extensions': 'none' } });
const TEXT = { 'content-type': 'text/plain; charset=UTF-8' };
/** What a request naming a session this shard does not hold gets; socket.io-client then reconnects. */
const unknownSession = () =>
  Response.json(
    { error: 'Unknown or closed Engine.IO session: connect again.', details: [{ field: 'sid', message: 'unknown' }] },
    { status: 400 },
  );

/** What a second WebSocket naming one polling session gets: engine.io closes it at once, this refuses it before. */
const upgradeTaken = () =>
  Response.json(
    {
      error: 'This session has already been offered its one WebSocket upgrade.',
      details: [{ field: 'sid', message: 'already upgrading' }],
    },
    { status: 400 },
  );

/** What a new session gets when the shard already holds its most; socket.io-client reports the status. */
const shardFull = (retryAfterSeconds: number) =>
  Response.json(
    { error: 'This real-time shard is full: connect again shortly.' },
    { status: 503, headers: { 'Retry-After': String(retryAfterSeconds) } },
  );

/**
 * One shard of the real-time layer: it holds some riders' WebSockets (docs/realtime.md, Topology)
 * and speaks Engine.IO v4 / Socket.IO v5 on them with the Hibernation API. What a socket is lives in
 * its attachment and typing indicators in storage, so the object may be evicted between frames.
 * It knows nothing of accounts or conversations: the Worker's subclass (worker/social/socket-rooms.ts)
 * answers the hooks below, in the manner of partyserver's `onConnect`/`onMessage`.
 */
export abstract class SocketShardBase<Env = Cloudflare.Env> extends DurableObject<Env> {
  /** Sockets by rider, rebuilt from the attachments after a wake-up. */
  private joinedIndex: Map<string, Joined[]> | null = null;
  private readonly typing = new TypingLedger(this.ctx.storage);
  /** Requests and time this instance carried (docs/scale.md); reading them is not counted. */
  private readonly counters = new ObjectCounters();
  /** Long-polling sessions by Engine.IO id; memory only, so a restart ends them (docs/realtime.md, Long-polling). */
  private readonly polling = new Map<string, PollingSession>();
  /** Namespace connects being authenticated, as `<Engine.IO id> <namespace>`: held only across that await. */
  private readonly connecting = new Set<string>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // The client's pong is answered by the runtime without waking the object (../shared/design.md).
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PONG_FRAME, NOOP_FRAME));
  }

  protected abstract settings(): RoomSettings;
  /** The rider a session token belongs to, or why a namespace is refused. */
  protected abstract authenticate(token: string | null): Promise<SocketIdentity | { refused: string }>;
  /** Carries out an event a client emitted; resolves to an error text for its acknowledgement, or null. */
  protected abstract onClientEvent(
    from: { userId: string; sid: string },
    event: RelayedClientEvent,
  ): Promise<string | null>;
  /** Records in the directory that a rider's socket is (or no longer is) held here. */
  protected abstract onPresence(userId: string, socketId: string, present: boolean): Promise<void>;
  /**
   * Records in the directory which conversation a rider's socket shows (null: none). `seq` grows with
   * every change on the socket, so a report overtaken by a later one is ignored.
   */
  protected abstract onViewing(
    userId: string,
    socketId: string,
    conversationId: string | null,
    seq: number,
  ): Promise<void>;
  /** Hands a figure to the operators' metrics; never awaited, so it costs the frame path nothing. */
  protected abstract onFigure(figure: ShardFigure): void;
  /** Drops whatever the shard remembers of whom these riders may reach: a block between them was made or lifted. */
  protected abstract onRelationsChanged(userIds: string[]): void;

  override fetch(request: Request): Promise<Response> {
    return this.counters.track(() => this.accept(request));
  }

  override webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    return this.counters.track(async () => {
      // Frames a client sent before this side closed it still arrive: each would be handled (and refused) again.
      if (ws.readyState !== WebSocket.OPEN) return;
      return attachmentOf(ws).probing ? this.onProbe(ws, message) : this.onMessage(this.link(ws), message);
    });
  }

  override webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    return this.counters.track(() => {
      answerClose(ws, code, reason);
      this.reportSessions(attachmentOf(ws).eid);
      return this.forget(this.link(ws));
    });
  }

  override webSocketError(ws: WebSocket): Promise<void> {
    return this.counters.track(() => {
      this.reportSessions(attachmentOf(ws).eid);
      return this.forget(this.link(ws));
    });
  }

  /** What this instance carried since it started (docs/scale.md). */
  readCounters(): CounterSnapshot {
    return this.counters.snapshot();
  }

  /**
   * Restarts this shard as a deploy or a crash would (docs/realtime.md, When an object restarts): every
   * socket is closed with 1012 (socket.io-client reconnects, to a random shard) and the instance ends,
   * losing its memory. For operators and the failure runs of bench/scale; answers how many sockets it closed.
   */
  reset(): number {
    const sockets = this.ctx.getWebSockets();
    for (const ws of sockets) {
      try {
        ws.close(1012, 'shard restarting');
      } catch {
        // Already closing.
      }
    }
    const polled = [...this.polling.values()];
    for (const session of polled) session.close();
    // After this call has answered: abort ends the instance and every request in it.
    setTimeout(() => this.ctx.abort('reset by an admin'), 0);
    return sockets.length + polled.length;
  }

  /** A request the Worker handed over (worker/platform/realtime/routes.ts checked its query). */
  private accept(request: Request): Promise<Response> {
    const query = new URL(request.url).searchParams;
    const sid = query.get('sid');
    // Every socket counts, probes too: they are few and brief, and counting them needs no attachment read.
    const { sessionsPerShard, shardFullRetryAfterSeconds } = this.settings();
    if (!sid && this.ctx.getWebSockets().length + this.polling.size >= sessionsPerShard) {
      this.onFigure({ kind: 'refusal', reason: 'shard-full', status: 503 });
      return Promise.resolve(shardFull(shardFullRetryAfterSeconds));
    }
    if (query.get('transport') === 'polling') {
      if (!sid) return this.openPolling(request);
      const session = this.polling.get(sid);
      if (!session) return Promise.resolve(unknownSession());
      return request.method === 'POST' ? this.receivePolled(session, request) : this.answerPoll(session);
    }
    return sid ? this.acceptProbe(sid) : this.acceptWebSocket(request);
  }

  private async acceptWebSocket(request: Request): Promise<Response> {
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    const attachment = this.newAttachment(request);
    server.serializeAttachment(attachment);
    server.send(this.openFrame(attachment.eid, []));
    this.reportSessions(attachment.eid);
    await this.schedulePings();
    await this.scheduleAlarm(attachment.connectedAt + this.settings().connectTimeoutMs);
    return switchTo(client);
  }

  private newAttachment(request: Request): SocketAttachment {
    return {
      eid: newSessionId(Number(request.headers.get(SHARD_HEADER) ?? 0)),
      connectedAt: Date.now(),
      queryToken: new URL(request.url).searchParams.get('token'),
      namespaces: {},
    };
  }

  private openFrame(sid: string, upgrades: string[]): string {
    const { pingIntervalMs, pingTimeoutMs, maxPayloadBytes } = this.settings();
    return openFrame(
      { sid, pingInterval: pingIntervalMs, pingTimeout: pingTimeoutMs, maxPayload: maxPayloadBytes },
      upgrades,
    );
  }

  /** The polling handshake: a new session, held in memory, offered the upgrade to a WebSocket. */
  private async openPolling(request: Request): Promise<Response> {
    const attachment = this.newAttachment(request);
    const { pollQueuePackets, pollQueueBytes } = this.settings();
    const session: PollingSession = new PollingSession(attachment, {
      queuePackets: pollQueuePackets,
      queueBytes: pollQueueBytes,
      onClosed: () => {
        this.polling.delete(attachment.eid);
        this.reportSessions(attachment.eid);
      },
      onOverflowed: () => {
        this.onFigure({ kind: 'refusal', reason: 'poll-queue-full', status: 400 });
        // The queue is freed already; the directory learns the rider left once the shard gets to it.
        void this.forget(session);
      },
    });
    this.polling.set(attachment.eid, session);
    this.reportSessions(attachment.eid);
    await this.schedulePings();
    await this.scheduleAlarm(attachment.connectedAt + this.settings().connectTimeoutMs);
    return new Response(this.openFrame(attachment.eid, ['websocket']), { headers: TEXT });
  }

  /** A long-poll GET: held until a packet is sent to the session (a ping at the latest). */
  private async answerPoll(session: PollingSession): Promise<Response> {
    const answer = await session.poll();
    if ('body' in answer) return new Response(answer.body, { headers: TEXT });
    // Two polls at once break the protocol's ordering; Engine.IO closes the session the same way.
    await this.drop(session, 1002, 'overlapping polls');
    return Response.json(
      { error: 'A poll is already pending for this session.', details: [{ field: 'sid', message: 'overlapping GET' }] },
      { status: 400 },
    );
  }

  /** A POST of packets, separated by \x1e; each is handled as a WebSocket frame would be. */
  private async receivePolled(session: PollingSession, request: Request): Promise<Response> {
    const limit = this.settings().maxPayloadBytes;
    const declared = Number(request.headers.get('content-length') ?? 0);
    const body = declared > limit ? '' : await request.text();
    if (declared > limit || frameBytes(body, limit) > limit) {
      await this.drop(session, 1009, 'payload larger than maxPayload');
      this.onFigure({ kind: 'refusal', reason: 'payload-too-large', status: 413 });
      return Response.json(
        {
          error: `A polling payload is limited to maxPayload (${limit} bytes).`,
          details: [{ field: 'body', message: 'too large' }],
        },
        { status: 413 },
      );
    }
    let refused = false;
    // Connects in a row are handled side by side, as a WebSocket's frames are, so a second connect of a namespace
    // (socket.io-client's, when connect() is called again at once) waits for the first's answer; anything else waits
    // for them.
    const connects: Promise<void>[] = [];
    for (const frame of body.split(PAYLOAD_SEPARATOR)) {
      if (isConnectFrame(frame)) connects.push(this.onMessage(session, frame));
      else {
        await Promise.all(connects.splice(0));
        await this.onMessage(session, frame);
      }
      // A client's close packet ends the session as asked; any other frame that ended it was refused.
      refused = session.isClosed && frame !== CLOSE_FRAME;
      if (session.isClosed) break;
    }
    await Promise.all(connects);
    if (refused) {
      const reason = session.closeReason || 'not a valid Engine.IO v4 payload';
      return Response.json(
        { error: `The session is closed: ${reason}.`, details: [{ field: 'body', message: reason }] },
        { status: 400 },
      );
    }
    return new Response('ok', { headers: TEXT });
  }

  /**
   * A WebSocket opened to take over a polling session: it answers the client's probe, then carries the
   * session from the client's upgrade packet on (engine.io-protocol, Upgrade). Until then it is pinged
   * by nobody and receives nothing else.
   */
  private async acceptProbe(sid: string): Promise<Response> {
    const session = this.polling.get(sid);
    if (!session) return unknownSession();
    // One WebSocket per session: each is accepted uncounted by the handshake limit, so more would bypass it.
    if (!session.claimUpgrade()) {
      this.onFigure({ kind: 'refusal', reason: 'upgrade-refused', status: 400 });
      return upgradeTaken();
    }
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    const probe: SocketAttachment = {
      eid: sid,
      connectedAt: Date.now(),
      queryToken: null,
      namespaces: {},
      probing: true,
    };
    server.serializeAttachment(probe);
    return switchTo(client);
  }

  private async onProbe(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const session = this.polling.get(attachmentOf(ws).eid);
    // The session ended (or was taken over) meanwhile: nothing is left to upgrade.
    if (!session) return this.drop(this.link(ws), 1000, 'session closed');
    if (message === PROBE_FRAME) {
      this.link(ws).send(PROBE_ANSWER_FRAME);
      return session.probed();
    }
    if (message !== UPGRADE_FRAME) return;
    // The socket takes the session as it stands; its shard and Engine.IO id are the same, so presence stays.
    if (!storeAttachment(ws, { ...session.attachment(), connectedAt: Date.now() })) return;
    const link = this.link(ws);
    for (const frame of session.handOver()) link.send(frame);
    this.joinedIndex = null;
  }

  private async onMessage(link: Link, message: string | ArrayBuffer): Promise<void> {
    const limit = this.settings().maxPayloadBytes;
    if (frameBytes(message, limit) > limit) {
      this.onFigure({ kind: 'refusal', reason: 'payload-too-large', status: 1009 });
      return this.drop(link, 1009, 'frame larger than maxPayload');
    }
    const frame = readFrame(message);
    switch (frame.kind) {
      case 'ping':
        return link.send(PONG_FRAME);
      case 'pong':
        return link.ponged();
      case 'close':
        return this.drop(link, 1000, '');
      case 'malformed':
        return this.drop(link, 1002, frame.reason.slice(0, 100));
      case 'packet':
        return this.onPacket(link, frame.packet);
      default:
        return;
    }
  }

  /**
   * Sends an event to the given riders' sockets here that joined its namespace, except one
   * connection (the one that caused it), left out only if it is that rider's: the socket id comes from a client, and
   * must never keep an event from someone else. Answers the riders who have no socket here any more, in any
   * namespace, so the directory can forget this shard for them.
   */
  deliver(userIds: string[], event: ServerEvent, except?: { sid: string; userId: string }): Promise<string[]> {
    return this.counters.track(() => this.deliverHere(userIds, event, except));
  }

  private async deliverHere(
    userIds: string[],
    event: ServerEvent,
    except?: { sid: string; userId: string },
  ): Promise<string[]> {
    const index = this.index();
    const absent: string[] = [];
    const reached: string[] = [];
    // Every receiver joined the event's namespace, so they all get the same bytes: encoded once.
    const frame = eventFrame(event.namespace, event.name, event.payload);
    let sent = 0;
    for (const userId of new Set(userIds)) {
      const held = index.get(userId) ?? [];
      // A rider here on the other namespace only is not absent: the directory lists connections, not namespaces.
      if (!held.length) absent.push(userId);
      const joined = held.filter((entry) => entry.nsp === event.namespace);
      if (joined.length) reached.push(userId);
      for (const entry of joined) {
        if (entry.sid === except?.sid && entry.userId === except.userId) continue;
        entry.link.send(frame);
        sent++;
      }
    }
    this.reportDelivery(event, sent);
    if (event.name === 'typing:start' && reached.length) {
      const entry = { ...event.payload, receivers: reached, expiresAt: Date.now() + event.payload.expiresInMs };
      await this.scheduleAlarm(await this.typing.started(entry));
    }
    if (event.name === 'typing:stop') await this.typing.stopped(event.payload.conversationId, event.payload.userId);
    return absent;
  }

  /**
   * Closes the rider's connections here that joined with a token that no longer admits them: one signed below
   * the account's token version now, or one of a revoked opt-in session. Answers how many were closed.
   */
  closeRider(userId: string, ended: EndedTokens): Promise<number> {
    return this.counters.track(() => this.closeRiderHere(userId, ended));
  }

  private async closeRiderHere(userId: string, ended: EndedTokens): Promise<number> {
    const revoked = new Set<Link>();
    for (const entry of this.index().get(userId) ?? []) {
      const joined = entry.link.attachment().namespaces[entry.nsp];
      if (joined && tokenEnded(joined, ended)) revoked.add(entry.link);
    }
    // 1008 (policy violation): the client's token no longer admits it; a reconnect with it is refused at connect.
    const reason = 'accountSuspended' in ended ? 'Account suspended.' : 'Session ended.';
    await Promise.all([...revoked].map((link) => this.drop(link, 1008, reason)));
    return revoked.size;
  }

  /** Tells the shard that whom these riders may reach changed, so it relays nothing by what it remembered of them. */
  relationsChanged(userIds: string[]): Promise<void> {
    return this.counters.track(() => this.onRelationsChanged(userIds));
  }

  /** Sends an event to every socket here that joined its namespace, except the given riders'. */
  broadcast(event: ServerEvent, exceptUserIds: string[] = []): Promise<number> {
    return this.counters.track(() => this.broadcastHere(event, exceptUserIds));
  }

  private broadcastHere(event: ServerEvent, exceptUserIds: string[]): number {
    const except = new Set(exceptUserIds);
    // One encoding for every socket: it was the per-socket cost of a feed-wide event.
    const frame = eventFrame(event.namespace, event.name, event.payload);
    let sent = 0;
    for (const joined of this.index().values()) {
      for (const entry of joined) {
        if (entry.nsp !== event.namespace || except.has(entry.userId)) continue;
        entry.link.send(frame);
        sent++;
      }
    }
    this.reportDelivery(event, sent);
    return sent;
  }

  private reportDelivery(event: ServerEvent, sockets: number): void {
    if (sockets) this.onFigure({ kind: 'delivery', event: event.name, namespace: event.namespace, sockets });
  }

  /** The sessions open here now, as a figure; `eid` is one of this shard's session ids, which carry its index. */
  private reportSessions(eid: string): void {
    const shard = shardOfSession(eid);
    if (shard === null) return;
    // A socket closing (answered in webSocketClose, or dropped from this side) is still listed until it is gone.
    const open = this.ctx.getWebSockets().filter((ws) => ws.readyState === WebSocket.OPEN).length;
    this.onFigure({ kind: 'sessions', shard, sessions: open + this.polling.size });
  }

  /**
   * One alarm per shard: it pings every socket, closes those that did not answer within pingTimeout
   * (Engine.IO's rule), and stops typing indicators nobody refreshed; then it sets itself for the next due time.
   */
  override alarm(): Promise<void> {
    return this.counters.track(() => this.pingRound());
  }

  private async pingRound(): Promise<void> {
    const { pingIntervalMs, pingTimeoutMs } = this.settings();
    const now = Date.now();
    const links = this.links();
    let pingDueAt = (await this.ctx.storage.get<number>(PING_DUE_KEY)) ?? now;
    let pongCheckAt = await this.ctx.storage.get<number>(PONG_CHECK_KEY);
    if (pongCheckAt !== undefined && pongCheckAt <= now + ALARM_SLACK_MS) {
      // Engine.IO's rule: a client that has not answered a ping within pingTimeout is gone, so a silent
      // client is closed pingInterval + pingTimeout after its last pong. Sockets that joined after the
      // ping went out were not asked yet.
      const pingedAt = pongCheckAt - pingTimeoutMs;
      for (const link of links) {
        if (Math.max(link.attachment().connectedAt, link.lastPongAt()) < pingedAt)
          await this.drop(link, 1001, 'ping timeout');
      }
      pongCheckAt = undefined;
    }
    const unjoinedUntil = await this.closeUnjoined(links, now);
    // Pings keep their own cadence, however often typing indicators bring the alarm forward.
    if (pingDueAt <= now + ALARM_SLACK_MS) {
      // A probing WebSocket must hear nothing before its probe answer; it is pinged once it carries the session.
      for (const link of this.links(false)) link.send(PING_FRAME);
      pingDueAt = now + pingIntervalMs;
      pongCheckAt = now + pingTimeoutMs;
    }
    for (const entry of await this.typing.expired(now)) this.stopTyping(entry);
    const nextTyping = await this.typing.nextExpiry();
    const remaining = this.links();
    const live = remaining.length > 0;
    // Sampled each round too, so a shard whose count has not changed still has a recent point.
    if (live) this.reportSessions(remaining[0]!.attachment().eid);
    if (live) await this.ctx.storage.put(PING_DUE_KEY, pingDueAt);
    else await this.ctx.storage.delete(PING_DUE_KEY);
    if (live && pongCheckAt !== undefined) await this.ctx.storage.put(PONG_CHECK_KEY, pongCheckAt);
    else await this.ctx.storage.delete(PONG_CHECK_KEY);
    const next = Math.min(
      live ? pingDueAt : Number.POSITIVE_INFINITY,
      live && pongCheckAt !== undefined ? pongCheckAt : Number.POSITIVE_INFINITY,
      nextTyping ?? Number.POSITIVE_INFINITY,
      unjoinedUntil ?? Number.POSITIVE_INFINITY,
    );
    if (Number.isFinite(next)) await this.ctx.storage.setAlarm(next);
  }

  /**
   * Closes the sessions (probes aside) that joined no namespace within connectTimeout, as Socket.IO's connectTimeout
   * does, so a handshake that never authenticates holds no memory until a ping check. Answers when the next one
   * left is due, or null.
   */
  private async closeUnjoined(links: Link[], now: number): Promise<number | null> {
    const { connectTimeoutMs } = this.settings();
    let next: number | null = null;
    for (const link of links) {
      const attachment = link.attachment();
      if (attachment.probing || Object.keys(attachment.namespaces).length) continue;
      const due = attachment.connectedAt + connectTimeoutMs;
      if (due <= now + ALARM_SLACK_MS) await this.drop(link, 1008, 'no namespace joined in time');
      else next = Math.min(next ?? due, due);
    }
    return next;
  }

  /** Starts the ping cadence for the first socket; later sockets join the running one. */
  private async schedulePings(): Promise<void> {
    if ((await this.ctx.storage.get<number>(PING_DUE_KEY)) !== undefined) return;
    const dueAt = Date.now() + this.settings().pingIntervalMs;
    await this.ctx.storage.put(PING_DUE_KEY, dueAt);
    await this.scheduleAlarm(dueAt);
  }

  private stopTyping(entry: TypingEntry): void {
    const payload = { conversationId: entry.conversationId, userId: entry.userId };
    for (const userId of entry.receivers) {
      for (const joined of this.index().get(userId) ?? []) {
        if (joined.nsp === '/messages') joined.link.send(eventFrame(joined.nsp, 'typing:stop', payload));
      }
    }
  }

  private async onPacket(link: Link, packet: Packet): Promise<void> {
    const nsp = packet.nsp;
    if (packet.type === PacketType.CONNECT) return this.onConnect(link, nsp, packet.data);
    if (!isNamespace(nsp)) return;
    const session = link.attachment().namespaces[nsp];
    // Packets for a namespace this socket has not joined are dropped, as a Socket.IO server does.
    if (!session) return;
    if (packet.type === PacketType.DISCONNECT) return this.leave(link, nsp);
    if (packet.type !== PacketType.EVENT) return;
    const [name, payload] = Array.isArray(packet.data) ? packet.data : [];
    const parsed = parseClientEvent(nsp, name, payload);
    const error = parsed.ok ? await this.carryOut(link, nsp, session, parsed.event) : parsed.error;
    if (packet.id !== undefined) link.send(ackFrame(nsp, packet.id, [error ? { error } : { ok: true }]));
  }

  /** What the socket shows is kept here; every other event goes to the Worker's shard. */
  private async carryOut(link: Link, nsp: Namespace, session: NamespaceSession, event: ClientEvent) {
    if (event.name !== 'conversation:viewing') return this.onClientEvent(session, event);
    await this.view(link, nsp, event.payload.conversationId);
    return null;
  }

  /**
   * A namespace connect: each costs a token check, a database read and a presence write, so a connection joins each
   * namespace once and sends a bounded number of them (durable-objects/socket-connects.ts).
   */
  private async onConnect(link: Link, nsp: string, auth: unknown): Promise<void> {
    const { connectsPerConnection, connectWindowMs } = this.settings();
    const counted = link.attachment();
    const bound = { perWindow: connectsPerConnection, windowMs: connectWindowMs };
    const answering = (name: Namespace) => this.connecting.has(`${counted.eid} ${name}`);
    const verdict = admitConnect(counted, nsp, Date.now(), bound, answering);
    if (verdict === 'too-many') {
      this.onFigure({ kind: 'refusal', reason: 'connects-rate-limited', status: 1008 });
      return this.drop(link, 1008, 'too many namespace connects');
    }
    if (verdict === 'repeated') {
      // Socket.IO's own answer to a CONNECT for a namespace the client is in: it closes the connection.
      this.onFigure({ kind: 'refusal', reason: 'namespace-rejoined', status: 1002 });
      return this.drop(link, 1002, 'namespace already joined');
    }
    if (!link.store(counted) || verdict === 'answering') return;
    if (!isNamespace(nsp)) {
      this.onFigure({ kind: 'refusal', reason: 'invalid-namespace', status: 0 });
      return link.send(connectErrorFrame(nsp, 'Invalid namespace'));
    }
    // Until the client is answered, a second connect of the namespace waits for this answer instead of closing it.
    const key = `${counted.eid} ${nsp}`;
    this.connecting.add(key);
    try {
      await this.join(link, nsp, auth, counted.queryToken);
    } finally {
      this.connecting.delete(key);
    }
  }

  private async join(link: Link, nsp: Namespace, auth: unknown, queryToken: string | null): Promise<void> {
    const authToken = (auth as { token?: unknown } | undefined)?.token;
    const outcome = await this.authenticate(typeof authToken === 'string' ? authToken : queryToken);
    if ('refused' in outcome) {
      this.onFigure({ kind: 'refusal', reason: 'namespace-refused', status: 0, detail: outcome.refused });
      return link.send(connectErrorFrame(nsp, outcome.refused));
    }
    // Read again after the await: the client connects both namespaces at once.
    const attachment = link.attachment();
    const shard = shardOfSession(attachment.eid);
    const sid = shard === null ? newId() : newSocketId(shard);
    const session = outcome.sessionId ? { session: outcome.sessionId } : {};
    attachment.namespaces[nsp] = { sid, userId: outcome.userId, tokenVersion: outcome.tokenVersion, ...session };
    if (!link.store(attachment)) return;
    this.joinedIndex = null;
    // Listed in the directory before the client hears it joined, so nothing sent to it after that is missed.
    await this.onPresence(outcome.userId, attachment.eid, true);
    link.send(connectedFrame(nsp, sid));
  }

  private async leave(link: Link, nsp: Namespace): Promise<void> {
    const attachment = link.attachment();
    const session = attachment.namespaces[nsp];
    const stopped = changeViewing(attachment, nsp, null);
    delete attachment.namespaces[nsp];
    link.store(attachment);
    this.joinedIndex = null;
    const stillJoined = Object.values(attachment.namespaces).some((other) => other.userId === session?.userId);
    if (session && !stillJoined) await this.onPresence(session.userId, attachment.eid, false);
    else if (stopped) await this.onViewing(stopped.userId, attachment.eid, null, stopped.seq);
  }

  /**
   * Keeps which conversation the socket shows, in its attachment and the rider's directory entry.
   * The id is not checked: a conversation the rider is not in sends them no pushes anyway, and
   * without an await before the write, changes are stored in the order the client sent them.
   */
  private async view(link: Link, nsp: Namespace, conversationId: string | null): Promise<void> {
    const attachment = link.attachment();
    const change = changeViewing(attachment, nsp, conversationId);
    if (change && link.store(attachment)) {
      await this.onViewing(change.userId, attachment.eid, conversationId, change.seq);
    }
  }

  /** Closes a connection from this side and forgets it. */
  private async drop(link: Link, code: number, reason: string): Promise<void> {
    // Read first: a polling session keeps nothing once closed.
    const attachment = link.attachment();
    link.close(code, reason);
    await this.forget(link, attachment);
  }

  private async forget(link: Link, attachment = link.attachment()): Promise<void> {
    if (!Object.keys(attachment.namespaces).length) return;
    link.store({ ...attachment, namespaces: {} });
    this.joinedIndex = null;
    const riders = new Set(Object.values(attachment.namespaces).map((session) => session.userId));
    await Promise.all([...riders].map((userId) => this.onPresence(userId, attachment.eid, false)));
  }

  private index(): Map<string, Joined[]> {
    if (this.joinedIndex) return this.joinedIndex;
    const index = new Map<string, Joined[]>();
    for (const link of this.links()) {
      for (const [nsp, session] of Object.entries(link.attachment().namespaces)) {
        const joined = index.get(session.userId) ?? [];
        joined.push({ link, nsp: nsp as Namespace, sid: session.sid, userId: session.userId });
        index.set(session.userId, joined);
      }
    }
    this.joinedIndex = index;
    return index;
  }

  /** Every connection here: WebSockets (probes only when asked) and polling sessions. */
  private links(withProbes = true): Link[] {
    const sockets = this.ctx.getWebSockets().filter((ws) => withProbes || !attachmentOf(ws).probing);
    return [...sockets.map((ws) => this.link(ws)), ...this.polling.values()];
  }

  private link(ws: WebSocket): Link {
    return webSocketLink(ws, this.ctx);
  }

  /** Moves the alarm earlier when `at` comes before it; one alarm serves pings and typing. */
  private async scheduleAlarm(at: number | null): Promise<void> {
    if (at === null) return;
    const current = await this.ctx.storage.getAlarm();
    if (current === null || at < current) await this.ctx.storage.setAlarm(at);
  }
}
