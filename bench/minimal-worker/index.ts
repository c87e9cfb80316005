/**
 * The floor under the project's direct message: `POST /api/conversations/{id}/messages` on the same shape as the
 * project (a Worker, one Durable Object holding a warm MongoClient behind typed RPC methods, objects holding
 * hibernating WebSockets), written as plainly as the platform allows and importing nothing of the project. It does
 * the project's message work: verify the session token (jose, HS256, the project's secret), read the sender's
 * account, check membership and blocks in one aggregation, insert the message, record it in the conversation,
 * deliver `message:created` to the participants' sockets but the sending one, and read the recipients' live push
 * tokens. Sockets speak just enough Engine.IO v4 / Socket.IO v5 for the unmodified socket.io-client over a
 * WebSocket: the open packet, pings, the `/messages` namespace connect with `auth.token`, and events.
 * Served by bench/minimal-worker/serve.ts; measured by bench/conversation-messages.ts.
 */
import { DurableObject } from 'cloudflare:workers';
import { jwtVerify } from 'jose';
import { type Collection, type Db, MongoClient, ObjectId } from 'mongodb';

interface Env {
  MONGODB_URI: string;
  JWT_SECRET: string;
  DATABASE: DurableObjectNamespace<Database>;
  SOCKETS: DurableObjectNamespace<Sockets>;
  RIDERS: DurableObjectNamespace<Rider>;
}

/** As many socket objects as the project spreads its connections over. */
const SHARDS = 8;
const NAMESPACE = '/messages';
const PING_INTERVAL_MS = 25_000;
const PING_TIMEOUT_MS = 20_000;
const HEX_ID = /^[0-9a-f]{24}$/;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let signingKey: { secret: string; key: Uint8Array } | undefined;

/** The rider a session token names, or null for anything but a token signed with the secret. */
async function riderOf(token: unknown, secret: string): Promise<string | null> {
  if (typeof token !== 'string') return null;
  if (signingKey?.secret !== secret) signingKey = { secret, key: new TextEncoder().encode(secret) };
  try {
    const { payload } = await jwtVerify(token, signingKey.key, { algorithms: ['HS256'] });
    return typeof payload._id === 'string' && HEX_ID.test(payload._id) ? payload._id : null;
  } catch {
    return null;
  }
}

export interface MessageView {
  _id: string;
  conversationId: string;
  text: string;
  sender: { _id: string; name: string; imageUri: string | null };
  createdAt: string;
}

export type Sent = 'no-account' | 'not-found' | 'blocked' | { view: MessageView; participantIds: string[] };

/** One warm MongoClient for every request: a Worker's own sockets would end with its request. */
export class Database extends DurableObject<Env> {
  private database: Db | undefined;
  private readonly collections = new Map<string, Collection>();

  /** The client's Db, made once: `client.db()` resolves its options anew on every call. */
  private get db(): Db {
    // No connect timeout: workerd's node:net keeps an armed socket timer past the driver's clearing of it.
    this.database ??= new MongoClient(this.env.MONGODB_URI, {
      serverSelectionTimeoutMS: 1500,
      connectTimeoutMS: 0,
      serverMonitoringMode: 'poll',
    }).db();
    return this.database;
  }

  /** A collection, made once per name: `db.collection()` also resolves its options anew on every call. */
  private collection(name: string): Collection {
    let collection = this.collections.get(name);
    if (!collection) {
      collection = this.db.collection(name);
      this.collections.set(name, collection);
    }
    return collection;
  }

  /** The account read, membership and blocks, the message insert and the conversation's update. */
  async sendMessage(senderHex: string, conversationHex: string, text: string): Promise<Sent> {
    const senderId = new ObjectId(senderHex);
    const account = await this.collection('users').findOne({ _id: senderId }, { projection: { name: 1, imageUri: 1 } });
    if (!account) return 'no-account';
    const [conversation] = await this.collection('conversations')
      .aggregate([
        { $match: { _id: new ObjectId(conversationHex), participantIds: senderId } },
        { $limit: 1 },
        {
          $lookup: {
            from: 'user_blocks',
            localField: 'participantIds',
            foreignField: 'blockedUserId',
            pipeline: [{ $match: { userId: senderId } }, { $limit: 1 }, { $project: { _id: 1 } }],
            as: 'byRider',
          },
        },
        {
          $lookup: {
            from: 'user_blocks',
            localField: 'participantIds',
            foreignField: 'userId',
            pipeline: [{ $match: { blockedUserId: senderId } }, { $limit: 1 }, { $project: { _id: 1 } }],
            as: 'ofRider',
          },
        },
      ])
      .toArray();
    if (!conversation) return 'not-found';
    if (conversation.byRider.length + conversation.ofRider.length > 0) return 'blocked';
    const now = new Date();
    const message = { _id: new ObjectId(), conversationId: conversation._id, userId: senderId, text, createdAt: now };
    await this.collection('dm_messages').insertOne({ ...message, updatedAt: now });
    await this.collection('conversations').updateOne(
      { _id: conversation._id },
      {
        $max: { lastActivityAt: now, lastMessageId: message._id },
        $set: { updatedAt: now, 'readMarkers.$[sender]': { userId: senderId, messageId: message._id, readAt: now } },
      },
      { arrayFilters: [{ 'sender.userId': senderId, 'sender.messageId': { $not: { $gte: message._id } } }] },
    );
    return {
      view: {
        _id: message._id.toHexString(),
        conversationId: conversationHex,
        text,
        sender: { _id: senderHex, name: String(account.name ?? ''), imageUri: account.imageUri ?? null },
        createdAt: now.toISOString(),
      },
      participantIds: (conversation.participantIds as ObjectId[]).map((id) => id.toHexString()),
    };
  }

  /** The recipients' live push tokens, as a push decision reads them (their count: nothing is pushed here). */
  async livePushTokens(userHexes: string[]): Promise<number> {
    const userIds = userHexes.map((hex) => new ObjectId(hex));
    return (
      await this.collection('pushTokens')
        .find({ userId: { $in: userIds }, deadAt: null })
        .toArray()
    ).length;
  }
}

/** A rider's directory entry: how many of their sockets each socket object holds. */
export class Rider extends DurableObject<Env> {
  private counts: Record<string, number> | undefined;

  async shards(): Promise<Record<string, number>> {
    this.counts ??= (await this.ctx.storage.get<Record<string, number>>('shards')) ?? {};
    return this.counts;
  }

  async attach(shard: string): Promise<void> {
    const counts = await this.shards();
    counts[shard] = (counts[shard] ?? 0) + 1;
    await this.ctx.storage.put('shards', counts);
  }

  async detach(shard: string): Promise<void> {
    const counts = await this.shards();
    if (!counts[shard]) return;
    if (--counts[shard] === 0) delete counts[shard];
    await this.ctx.storage.put('shards', counts);
  }
}

/** What a socket carries across hibernation: its object's name, and its rider and namespace sid once connected. */
interface Attachment {
  shard: string;
  userId: string | null;
  sid: string | null;
}

/** Hibernating WebSockets; a namespace socket's id starts with its object's name, so a sender's echo can be skipped. */
export class Sockets extends DurableObject<Env> {
  private byRider: Map<string, Set<WebSocket>> | undefined;

  /** The connected sockets by rider, rebuilt from their attachments after the object hibernated. */
  private riders(): Map<string, Set<WebSocket>> {
    if (!this.byRider) {
      this.byRider = new Map();
      for (const ws of this.ctx.getWebSockets()) {
        const { userId } = ws.deserializeAttachment() as Attachment;
        if (userId) this.add(userId, ws);
      }
    }
    return this.byRider;
  }

  private add(userId: string, ws: WebSocket) {
    const sockets = this.riders().get(userId) ?? new Set();
    sockets.add(ws);
    this.riders().set(userId, sockets);
  }

  override async fetch(request: Request): Promise<Response> {
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    this.ctx.acceptWebSocket(server);
    const attachment: Attachment = { shard: request.headers.get('x-shard') ?? '', userId: null, sid: null };
    server.serializeAttachment(attachment);
    const open = {
      sid: crypto.randomUUID(),
      upgrades: [],
      pingInterval: PING_INTERVAL_MS,
      pingTimeout: PING_TIMEOUT_MS,
    };
    server.send(`0${JSON.stringify({ ...open, maxPayload: 1_000_000 })}`);
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + PING_INTERVAL_MS);
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket, data: string | ArrayBuffer): Promise<void> {
    if (typeof data !== 'string') return;
    if (data.startsWith(`40${NAMESPACE}`)) return this.join(ws, data.slice(`40${NAMESPACE},`.length));
    if (data.startsWith(`41${NAMESPACE}`)) return this.leave(ws);
    // `3` (pong) and anything else: nothing to do.
  }

  /** The namespace connect: its `auth.token` names the rider, whom the directory then finds here. */
  private async join(ws: WebSocket, auth: string) {
    let token: unknown;
    try {
      token = (JSON.parse(auth) as { token?: unknown }).token;
    } catch {
      token = undefined;
    }
    const userId = await riderOf(token, this.env.JWT_SECRET);
    if (!userId) return ws.send(`44${NAMESPACE},${JSON.stringify({ message: 'Invalid token.' })}`);
    const attachment = ws.deserializeAttachment() as Attachment;
    const sid = `${attachment.shard}.${crypto.randomUUID()}`;
    ws.serializeAttachment({ ...attachment, userId, sid });
    await this.env.RIDERS.get(this.env.RIDERS.idFromName(userId)).attach(attachment.shard);
    this.add(userId, ws);
    ws.send(`40${NAMESPACE},${JSON.stringify({ sid })}`);
  }

  private async leave(ws: WebSocket) {
    const { shard, userId } = ws.deserializeAttachment() as Attachment;
    ws.serializeAttachment({ shard, userId: null, sid: null });
    if (!userId) return;
    this.riders().get(userId)?.delete(ws);
    await this.env.RIDERS.get(this.env.RIDERS.idFromName(userId)).detach(shard);
  }

  override async webSocketClose(ws: WebSocket): Promise<void> {
    await this.leave(ws);
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    await this.leave(ws);
  }

  /** Engine.IO v4: the server pings, the client answers within pingTimeout or drops the connection. */
  override async alarm(): Promise<void> {
    const sockets = this.ctx.getWebSockets();
    for (const ws of sockets) ws.send('2');
    if (sockets.length) await this.ctx.storage.setAlarm(Date.now() + PING_INTERVAL_MS);
  }

  /** Sends one ready frame to every socket of these riders but the one whose sid is `exceptSid`. */
  async deliver(userIds: string[], exceptSid: string | null, frame: string): Promise<void> {
    for (const userId of userIds) {
      for (const ws of this.riders().get(userId) ?? []) {
        if (exceptSid === null || (ws.deserializeAttachment() as Attachment).sid !== exceptSid) ws.send(frame);
      }
    }
  }
}

/** The event to every participant's sockets, the sender's other devices included: a directory read per rider. */
async function deliver(
  env: Env,
  participantIds: string[],
  senderId: string,
  exceptSid: string | null,
  view: MessageView,
) {
  const frame = `42${NAMESPACE},${JSON.stringify(['message:created', { conversationId: view.conversationId, message: view }])}`;
  const entries = await Promise.all(participantIds.map((id) => env.RIDERS.get(env.RIDERS.idFromName(id)).shards()));
  const exceptShard = exceptSid?.slice(0, exceptSid.indexOf('.'));
  const byShard = new Map<string, string[]>();
  participantIds.forEach((userId, i) => {
    for (const [shard, count] of Object.entries(entries[i]!)) {
      // The sender's only socket on the sending one's object is the sending one: no call for nothing.
      if (userId === senderId && shard === exceptShard && count === 1) continue;
      byShard.set(shard, [...(byShard.get(shard) ?? []), userId]);
    }
  });
  await Promise.all(
    [...byShard].map(([shard, riders]) =>
      env.SOCKETS.get(env.SOCKETS.idFromName(shard)).deliver(riders, exceptSid, frame),
    ),
  );
}

export default {
  async fetch(request, env, ctx): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/socket.io/') {
      if (request.headers.get('upgrade') !== 'websocket') return json(400, { error: 'WebSocket transport only.' });
      const shard = `shard-${Math.floor(Math.random() * SHARDS)}`;
      const forwarded = new Request(request);
      forwarded.headers.set('x-shard', shard);
      return env.SOCKETS.get(env.SOCKETS.idFromName(shard)).fetch(forwarded);
    }
    const match = /^\/api\/conversations\/([0-9a-f]{24})\/messages$/.exec(url.pathname);
    if (request.method !== 'POST' || !match) return json(404, { error: 'Not found.' });
    const senderId = await riderOf(request.headers.get('x-auth-token'), env.JWT_SECRET);
    if (!senderId) return json(400, { error: 'Invalid token.' });
    const body = (await request.json().catch(() => null)) as { text?: unknown } | null;
    const text = body?.text;
    if (typeof text !== 'string' || !text.trim() || text.length > 2000) {
      return json(400, { error: 'text: 1 to 2000 characters.' });
    }
    const database = env.DATABASE.get(env.DATABASE.idFromName('database'));
    const sent = await database.sendMessage(senderId, match[1]!, text);
    if (sent === 'no-account') return json(400, { error: 'Invalid token.' });
    if (sent === 'not-found') return json(404, { error: 'Conversation not found.' });
    if (sent === 'blocked') return json(403, { error: 'Blocked.' });
    const recipients = sent.participantIds.filter((id) => id !== senderId);
    ctx.waitUntil(deliver(env, sent.participantIds, senderId, request.headers.get('x-socket-id'), sent.view));
    ctx.waitUntil(database.livePushTokens(recipients));
    return json(201, sent.view);
  },
} satisfies ExportedHandler<Env>;
