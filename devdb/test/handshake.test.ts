import net from 'node:net';
import { BSON, Long, ObjectId } from 'bson';
import { MongoServerError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { type AnyDoc, useTestServer } from './helpers.js';

const t = useTestServer();

/** Minimal wire client: sends raw frames, reads whole reply frames. */
class RawClient {
  private buf = Buffer.alloc(0);
  private waiters: ((frame: Buffer) => void)[] = [];
  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buf = Buffer.concat([this.buf, chunk]);
      while (this.buf.length >= 4 && this.buf.length >= this.buf.readInt32LE(0)) {
        const len = this.buf.readInt32LE(0);
        const frame = this.buf.subarray(0, len);
        this.buf = this.buf.subarray(len);
        this.waiters.shift()?.(frame);
      }
    });
  }
  static connect(port: number): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }
  request(frame: Buffer): Promise<Buffer> {
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.socket.write(frame);
    });
  }
  send(frame: Buffer): void {
    this.socket.write(frame);
  }
  close(): void {
    this.socket.destroy();
  }
}

function header(len: number, requestId: number, opCode: number): Buffer {
  const h = Buffer.alloc(16);
  h.writeInt32LE(len, 0);
  h.writeInt32LE(requestId, 4);
  h.writeInt32LE(opCode, 12);
  return h;
}

function opQuery(requestId: number, ns: string, query: object): Buffer {
  const body = Buffer.concat([
    Buffer.alloc(4),
    Buffer.from(`${ns}\0`),
    Buffer.alloc(4),
    Buffer.from([0xff, 0xff, 0xff, 0xff]),
    BSON.serialize(query),
  ]);
  return Buffer.concat([header(16 + body.length, requestId, 2004), body]);
}

function opMsg(
  requestId: number,
  doc: object,
  opts: { flags?: number; sequences?: [string, object[]][] } = {},
): Buffer {
  const parts: Buffer[] = [Buffer.alloc(4), Buffer.from([0]), Buffer.from(BSON.serialize(doc))];
  parts[0]!.writeUInt32LE(opts.flags ?? 0, 0);
  for (const [id, docs] of opts.sequences ?? []) {
    const payload = Buffer.concat([Buffer.from(`${id}\0`), ...docs.map((d) => Buffer.from(BSON.serialize(d)))]);
    const size = Buffer.alloc(4);
    size.writeInt32LE(4 + payload.length, 0);
    parts.push(Buffer.from([1]), size, payload);
  }
  if ((opts.flags ?? 0) & 1) parts.push(Buffer.alloc(4));
  const body = Buffer.concat(parts);
  return Buffer.concat([header(16 + body.length, requestId, 2013), body]);
}

function parseMsgReply(frame: Buffer): { responseTo: number; doc: Record<string, unknown> } {
  expect(frame.readInt32LE(12)).toBe(2013);
  expect(frame[20]).toBe(0);
  return { responseTo: frame.readInt32LE(8), doc: BSON.deserialize(frame.subarray(21)) };
}

describe('handshake and admin commands', () => {
  it('answers a legacy OP_QUERY isMaster with OP_REPLY', async () => {
    const raw = await RawClient.connect(t.server.port);
    try {
      const frame = await raw.request(opQuery(7, 'admin.$cmd', { isMaster: 1, helloOk: true }));
      expect(frame.readInt32LE(8)).toBe(7);
      expect(frame.readInt32LE(12)).toBe(1);
      expect(frame.readInt32LE(16 + 16)).toBe(1); // numberReturned
      const doc = BSON.deserialize(frame.subarray(36));
      expect(doc).toMatchObject({ ismaster: true, helloOk: true, maxWireVersion: 21, minWireVersion: 0, ok: 1 });
      expect(doc.setName).toBeUndefined();
    } finally {
      raw.close();
    }
  });

  it('answers OP_MSG with the checksum flag, document sequences and moreToCome', async () => {
    const raw = await RawClient.connect(t.server.port);
    const dbName = t.db('raw').databaseName;
    try {
      const hello = parseMsgReply(await raw.request(opMsg(11, { hello: 1, $db: 'admin' }, { flags: 1 })));
      expect(hello.responseTo).toBe(11);
      expect(hello.doc).toMatchObject({ isWritablePrimary: true, maxWireVersion: 21, ok: 1 });

      const ins = parseMsgReply(
        await raw.request(
          opMsg(12, { insert: 'c', $db: dbName }, { sequences: [['documents', [{ _id: 1 }, { _id: 2 }]]] }),
        ),
      );
      expect(ins.doc).toMatchObject({ n: 2, ok: 1 });

      // moreToCome (w:0): executed, never answered; the next reply is for request 14.
      raw.send(
        opMsg(
          13,
          { insert: 'c', $db: dbName, writeConcern: { w: 0 } },
          { flags: 2, sequences: [['documents', [{ _id: 3 }]]] },
        ),
      );
      const found = parseMsgReply(await raw.request(opMsg(14, { find: 'c', filter: {}, $db: dbName })));
      expect(found.responseTo).toBe(14);
      const cursor = found.doc.cursor as { firstBatch: unknown[] };
      expect(cursor.firstBatch).toEqual([{ _id: 1 }, { _id: 2 }, { _id: 3 }]);
    } finally {
      raw.close();
    }
  });

  it('survives garbage BSON in a well-framed message', async () => {
    const raw = await RawClient.connect(t.server.port);
    try {
      const body = Buffer.concat([Buffer.alloc(4), Buffer.from([0]), Buffer.from([9, 0, 0, 0, 0xee, 1, 2, 3, 4])]);
      const reply = parseMsgReply(await raw.request(Buffer.concat([header(16 + body.length, 21, 2013), body])));
      expect(reply.doc.ok).toBe(0);
      const ping = parseMsgReply(await raw.request(opMsg(22, { ping: 1, $db: 'admin' })));
      expect(ping.doc.ok).toBe(1);
    } finally {
      raw.close();
    }
  });

  it('reports the hello shape the driver expects', async () => {
    const hello = await t.client.db('admin').command({ hello: 1 });
    expect(hello).toMatchObject({
      isWritablePrimary: true,
      maxBsonObjectSize: 16 * 1024 * 1024,
      maxMessageSizeBytes: 48_000_000,
      maxWriteBatchSize: 100000,
      logicalSessionTimeoutMinutes: 30,
      minWireVersion: 0,
      maxWireVersion: 21,
      readOnly: false,
      ok: 1,
    });
    expect(hello.localTime).toBeInstanceOf(Date);
    expect(typeof hello.connectionId).toBe('number');
    const legacy = await t.client.db('admin').command({ isMaster: 1 });
    expect(legacy.ismaster).toBe(true);
    const lower = await t.client.db('admin').command({ ismaster: 1 });
    expect(lower.ismaster).toBe(true);
  });

  it('answers ping, buildInfo and endSessions', async () => {
    expect(await t.client.db('admin').command({ ping: 1 })).toEqual({ ok: 1 });
    const info = await t.client.db('admin').command({ buildInfo: 1 });
    expect(info.version).toBe('7.0.0');
    expect(info.versionArray).toEqual([7, 0, 0, 0]);
    const session = t.client.startSession();
    await t.client.db('admin').command({ endSessions: [session.id] });
    await session.endSession();
  });

  it('rejects unknown commands with code 59 and keeps the connection', async () => {
    const err = await t.client
      .db('admin')
      .command({ frobnicate: 1 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err).toMatchObject({ code: 59, codeName: 'CommandNotFound', errmsg: "no such command: 'frobnicate'" });
    expect(
      (
        await t.client
          .db('admin')
          .command({ constructor: 1 })
          .catch((e: { code: number }) => e)
      ).code,
    ).toBe(59);
    expect((await t.client.db('admin').command({ ping: 1 })).ok).toBe(1);
  });

  it('turns internal failures into error replies, not dropped connections', async () => {
    const db = t.db();
    await db.collection<AnyDoc>('c').insertOne({ a: 1 });
    const err = await db
      .collection<AnyDoc>('c')
      .find({ a: { $frob: 1 } })
      .toArray()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MongoServerError);
    expect((err as MongoServerError).code).toBe(2);
    expect(await db.collection<AnyDoc>('c').countDocuments()).toBe(1);
  });

  it('ignores session, concern and API fields on commands', async () => {
    const db = t.db();
    const reply = await db.command({
      insert: 'c',
      documents: [{ _id: new ObjectId() }],
      writeConcern: { w: 'majority' },
      readConcern: { level: 'local' },
      txnNumber: Long.fromNumber(1),
      lsid: { id: new BSON.UUID() },
      $clusterTime: { clusterTime: new BSON.Timestamp({ t: 1, i: 1 }) },
      apiVersion: '1',
      comment: 'hi',
    });
    expect(reply).toMatchObject({ n: 1, ok: 1 });
  });
});
