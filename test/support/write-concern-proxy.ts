import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { BSON, type Document } from 'mongodb';

const OP_MSG = 2013;

/** Whole wire messages out of a byte stream: each starts with its own length. */
function messages(each: (message: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
      each(pending.subarray(0, pending.readInt32LE(0)));
      pending = pending.subarray(pending.readInt32LE(0));
    }
  };
}

/**
 * An OP_MSG's command: after the header (16 bytes) and flags (4), a kind 0 section (1 byte, then the document, its
 * length first); an insert's documents may follow as a kind 1 section.
 */
const commandOf = (message: Buffer): Document => BSON.deserialize(message.subarray(21, 21 + message.readInt32LE(21)));

/**
 * A stand-in between the driver and a dev database that answers every `insert` as a replica set whose write concern
 * timed out: the database's own reply (the documents are stored) with `writeConcernError` added, which the dev
 * database, having no replicas to wait for, never sends. Everything else passes through unchanged.
 */
export async function startWriteConcernProxy(
  target: { port: number },
  writeConcernError: Document = {
    code: 64,
    codeName: 'WriteConcernFailed',
    errmsg: 'waiting for replication timed out',
  },
): Promise<{ uri: string; inserts(): number; close(): Promise<void> }> {
  let inserts = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const database = connect(target.port, '127.0.0.1');
    sockets.add(client).add(database);
    // The request ids of this connection's inserts, whose replies get the failure.
    const inserted = new Set<number>();
    client.on(
      'data',
      messages((message) => {
        if (message.readInt32LE(12) === OP_MSG && Object.keys(commandOf(message))[0] === 'insert') {
          inserted.add(message.readInt32LE(4));
          inserts += 1;
        }
        database.write(message);
      }),
    );
    database.on(
      'data',
      messages((message) => {
        if (!inserted.delete(message.readInt32LE(8))) return void client.write(message);
        const reply = BSON.serialize({ ...commandOf(message), writeConcernError });
        const header = Buffer.from(message.subarray(0, 21));
        header.writeInt32LE(21 + reply.length, 0);
        client.write(Buffer.concat([header, reply]));
      }),
    );
    for (const [socket, other] of [
      [client, database],
      [database, client],
    ] as const) {
      socket.on('close', () => other.destroy());
      socket.on('error', () => other.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    uri: `mongodb://127.0.0.1:${(server.address() as AddressInfo).port}`,
    inserts: () => inserts,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
