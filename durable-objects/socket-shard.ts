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
import {
  attachmentOf,
  changeViewing,
  type NamespaceSession,
  type SocketAttachment,
  storeAttachment,
} from './socket-attachment';
import { answerClose } from './socket-close';
import {
  ackFrame,
  connectErrorFrame,
  connectedFrame,
  eventFrame,
  frameBytes,
  NOOP_FRAME,
  openFrame,
  type Packet,
  PacketType,
  PING_FRAME,
  PONG_FRAME,
  readFrame,
} from './socket-io-frames';
import { type TypingEntry, TypingLedger } from './typing-ledger';

/** The timings a shard announces and keeps (worker/platform/limits.ts `LIMITS.realtime`, settings may override). */
export interface RoomSettings {
  pingIntervalMs: number;
  pingTimeoutMs: number;
  maxPayloadBytes: number;
  typingTtlMs: number;
}

type Joined = { ws: WebSocket; nsp: Namespace; sid: string; userId: string };

// When the next ping round is due, kept in storage across wake-ups.
const PING_DUE_KEY = 'pingDueAt';
// When the sockets pinged last must have answered (the round's time + pingTimeout); absent between checks.
const PONG_CHECK_KEY = 'pongCheckAt';
// An alarm may fire a little early or late; a ping round this close to due is taken now.
const ALARM_SLACK_MS = 50;

const newId = () => crypto.randomUUID().replaceAll('-', '');

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

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // The client's pong is answered by the runtime without waking the object (../shared/design.md).
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PONG_FRAME, NOOP_FRAME));
  }

  protected abstract settings(): RoomSettings;
  /** The rider a session token belongs to, or why a namespace is refused. */
  protected abstract authenticate(token: string | null): Promise<{ userId: string } | { refused: string }>;
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

  override fetch(request: Request): Promise<Response> {
    return this.counters.track(() => this.accept(request));
  }

  override webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    return this.counters.track(() => this.onMessage(ws, message));
  }

  override webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    return this.counters.track(() => {
      answerClose(ws, code, reason);
      return this.forget(ws);
    });
  }

  override webSocketError(ws: WebSocket): Promise<void> {
    return this.counters.track(() => this.forget(ws));
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
    // After this call has answered: abort ends the instance and every request in it.
    setTimeout(() => this.ctx.abort('reset by an admin'), 0);
    return sockets.length;
  }

  private async accept(request: Request): Promise<Response> {
    const settings = this.settings();
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    const attachment: SocketAttachment = {
      eid: newId(),
      connectedAt: Date.now(),
      queryToken: new URL(request.url).searchParams.get('token'),
      namespaces: {},
    };
    server.serializeAttachment(attachment);
    server.send(
      openFrame({
        sid: attachment.eid,
        pingInterval: settings.pingIntervalMs,
        pingTimeout: settings.pingTimeoutMs,
        maxPayload: settings.maxPayloadBytes,
      }),
    );
    await this.schedulePings();
    return new Response(null, { status: 101, webSocket: client });
  }

  private async onMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const limit = this.settings().maxPayloadBytes;
    if (frameBytes(message, limit) > limit) return this.drop(ws, 1009, 'frame larger than maxPayload');
    const frame = readFrame(message);
    switch (frame.kind) {
      case 'ping':
        return send(ws, PONG_FRAME);
      case 'close':
        return this.drop(ws, 1000, '');
      case 'malformed':
        return this.drop(ws, 1002, frame.reason.slice(0, 100));
      case 'packet':
        return this.onPacket(ws, frame.packet);
      default:
        return;
    }
  }

  /**
   * Sends an event to the given riders' sockets here that joined its namespace, except one
   * connection (the one that caused it). Answers the riders who have no socket here any more,
   * so the directory can forget this shard for them.
   */
  deliver(userIds: string[], event: ServerEvent, exceptSid?: string): Promise<string[]> {
    return this.counters.track(() => this.deliverHere(userIds, event, exceptSid));
  }

  private async deliverHere(userIds: string[], event: ServerEvent, exceptSid?: string): Promise<string[]> {
    const index = this.index();
    const absent: string[] = [];
    const reached: string[] = [];
    for (const userId of new Set(userIds)) {
      const joined = (index.get(userId) ?? []).filter((entry) => entry.nsp === event.namespace);
      if (!joined.length) absent.push(userId);
      else reached.push(userId);
      for (const entry of joined)
        if (entry.sid !== exceptSid) send(entry.ws, eventFrame(entry.nsp, event.name, event.payload));
    }
    if (event.name === 'typing:start' && reached.length) {
      const entry = { ...event.payload, receivers: reached, expiresAt: Date.now() + event.payload.expiresInMs };
      await this.scheduleAlarm(await this.typing.started(entry));
    }
    if (event.name === 'typing:stop') await this.typing.stopped(event.payload.conversationId, event.payload.userId);
    return absent;
  }

  /** Sends an event to every socket here that joined its namespace, except the given riders'. */
  broadcast(event: ServerEvent, exceptUserIds: string[] = []): Promise<number> {
    return this.counters.track(() => this.broadcastHere(event, exceptUserIds));
  }

  private broadcastHere(event: ServerEvent, exceptUserIds: string[]): number {
    const except = new Set(exceptUserIds);
    let sent = 0;
    for (const joined of this.index().values()) {
      for (const entry of joined) {
        if (entry.nsp !== event.namespace || except.has(entry.userId)) continue;
        send(entry.ws, eventFrame(entry.nsp, event.name, event.payload));
        sent++;
      }
    }
    return sent;
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
    const sockets = this.ctx.getWebSockets();
    let pingDueAt = (await this.ctx.storage.get<number>(PING_DUE_KEY)) ?? now;
    let pongCheckAt = await this.ctx.storage.get<number>(PONG_CHECK_KEY);
    if (pongCheckAt !== undefined && pongCheckAt <= now + ALARM_SLACK_MS) {
      // Engine.IO's rule: a client that has not answered a ping within pingTimeout is gone, so a silent
      // client is closed pingInterval + pingTimeout after its last pong. Sockets that joined after the
      // ping went out were not asked yet.
      const pingedAt = pongCheckAt - pingTimeoutMs;
      for (const ws of sockets) {
        const lastPong = this.ctx.getWebSocketAutoResponseTimestamp(ws)?.getTime() ?? 0;
        if (Math.max(attachmentOf(ws).connectedAt, lastPong) < pingedAt) await this.drop(ws, 1001, 'ping timeout');
      }
      pongCheckAt = undefined;
    }
    // Pings keep their own cadence, however often typing indicators bring the alarm forward.
    if (pingDueAt <= now + ALARM_SLACK_MS) {
      for (const ws of this.ctx.getWebSockets()) send(ws, PING_FRAME);
      pingDueAt = now + pingIntervalMs;
      pongCheckAt = now + pingTimeoutMs;
    }
    for (const entry of await this.typing.expired(now)) this.stopTyping(entry);
    const nextTyping = await this.typing.nextExpiry();
    const live = this.ctx.getWebSockets().length > 0;
    if (live) await this.ctx.storage.put(PING_DUE_KEY, pingDueAt);
    else await this.ctx.storage.delete(PING_DUE_KEY);
    if (live && pongCheckAt !== undefined) await this.ctx.storage.put(PONG_CHECK_KEY, pongCheckAt);
    else await this.ctx.storage.delete(PONG_CHECK_KEY);
    const next = Math.min(
      live ? pingDueAt : Number.POSITIVE_INFINITY,
      live && pongCheckAt !== undefined ? pongCheckAt : Number.POSITIVE_INFINITY,
      nextTyping ?? Number.POSITIVE_INFINITY,
    );
    if (Number.isFinite(next)) await this.ctx.storage.setAlarm(next);
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
        if (joined.nsp === '/messages') send(joined.ws, eventFrame(joined.nsp, 'typing:stop', payload));
      }
    }
  }

  private async onPacket(ws: WebSocket, packet: Packet): Promise<void> {
    const nsp = packet.nsp;
    if (packet.type === PacketType.CONNECT) return this.onConnect(ws, nsp, packet.data);
    if (!isNamespace(nsp)) return;
    const session = attachmentOf(ws).namespaces[nsp];
    // Packets for a namespace this socket has not joined are dropped, as a Socket.IO server does.
    if (!session) return;
    if (packet.type === PacketType.DISCONNECT) return this.leave(ws, nsp);
    if (packet.type !== PacketType.EVENT) return;
    const [name, payload] = Array.isArray(packet.data) ? packet.data : [];
    const parsed = parseClientEvent(nsp, name, payload);
    const error = parsed.ok ? await this.carryOut(ws, nsp, session, parsed.event) : parsed.error;
    if (packet.id !== undefined) send(ws, ackFrame(nsp, packet.id, [error ? { error } : { ok: true }]));
  }

  /** What the socket shows is kept here; every other event goes to the Worker's shard. */
  private async carryOut(ws: WebSocket, nsp: Namespace, session: NamespaceSession, event: ClientEvent) {
    if (event.name !== 'conversation:viewing') return this.onClientEvent(session, event);
    await this.view(ws, nsp, event.payload.conversationId);
    return null;
  }

  private async onConnect(ws: WebSocket, nsp: string, auth: unknown): Promise<void> {
    if (!isNamespace(nsp)) return send(ws, connectErrorFrame(nsp, 'Invalid namespace'));
    const authToken = (auth as { token?: unknown } | undefined)?.token;
    const token = typeof authToken === 'string' ? authToken : attachmentOf(ws).queryToken;
    const outcome = await this.authenticate(token);
    if ('refused' in outcome) return send(ws, connectErrorFrame(nsp, outcome.refused));
    // Read again after the await: the client connects both namespaces at once.
    const attachment = attachmentOf(ws);
    const sid = newId();
    attachment.namespaces[nsp] = { sid, userId: outcome.userId };
    if (!storeAttachment(ws, attachment)) return;
    this.joinedIndex = null;
    // Listed in the directory before the client hears it joined, so nothing sent to it after that is missed.
    await this.onPresence(outcome.userId, attachment.eid, true);
    send(ws, connectedFrame(nsp, sid));
  }

  private async leave(ws: WebSocket, nsp: Namespace): Promise<void> {
    const attachment = attachmentOf(ws);
    const session = attachment.namespaces[nsp];
    const stopped = changeViewing(attachment, nsp, null);
    delete attachment.namespaces[nsp];
    storeAttachment(ws, attachment);
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
  private async view(ws: WebSocket, nsp: Namespace, conversationId: string | null): Promise<void> {
    const attachment = attachmentOf(ws);
    const change = changeViewing(attachment, nsp, conversationId);
    if (change && storeAttachment(ws, attachment)) {
      await this.onViewing(change.userId, attachment.eid, conversationId, change.seq);
    }
  }

  /** Closes a socket from this side and forgets it. */
  private async drop(ws: WebSocket, code: number, reason: string): Promise<void> {
    try {
      ws.close(code, reason);
    } catch {
      // Already closing: the runtime reports it through webSocketClose.
    }
    await this.forget(ws);
  }

  private async forget(ws: WebSocket): Promise<void> {
    const attachment = attachmentOf(ws);
    if (!Object.keys(attachment.namespaces).length) return;
    storeAttachment(ws, { ...attachment, namespaces: {} });
    this.joinedIndex = null;
    const riders = new Set(Object.values(attachment.namespaces).map((session) => session.userId));
    await Promise.all([...riders].map((userId) => this.onPresence(userId, attachment.eid, false)));
  }

  private index(): Map<string, Joined[]> {
    if (this.joinedIndex) return this.joinedIndex;
    const index = new Map<string, Joined[]>();
    for (const ws of this.ctx.getWebSockets()) {
      for (const [nsp, session] of Object.entries(attachmentOf(ws).namespaces)) {
        const joined = index.get(session.userId) ?? [];
        joined.push({ ws, nsp: nsp as Namespace, sid: session.sid, userId: session.userId });
        index.set(session.userId, joined);
      }
    }
    this.joinedIndex = index;
    return index;
  }

  /** Moves the alarm earlier when `at` comes before it; one alarm serves pings and typing. */
  private async scheduleAlarm(at: number | null): Promise<void> {
    if (at === null) return;
    const current = await this.ctx.storage.getAlarm();
    if (current === null || at < current) await this.ctx.storage.setAlarm(at);
  }
}

/** A frame to a socket that closed meanwhile is dropped: its close event cleans up. */
function send(ws: WebSocket, frame: string): void {
  try {
    ws.send(frame);
  } catch {
    // Closed or closing.
  }
}
