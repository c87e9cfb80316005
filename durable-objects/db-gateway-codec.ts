import {
  BSON,
  type Document,
  MongoBulkWriteError,
  MongoError,
  MongoServerError,
  MongoWriteConcernError,
  ObjectId,
} from 'mongodb';
import { NOT_PLAIN, plainCopy, revivePlain } from './db-gateway-plain';
import { isDocumentSequence, sequenceBytes, sequenceOf, splitDocuments } from './encoded-documents';

// Values cross Durable Object RPC plain when they can (db-gateway-plain.ts), else as BSON bytes: structured clone
// would turn Decimal128, Long and Binary into plain objects. The decode options keep each value as the driver would hand it over.
const DECODE: BSON.DeserializeOptions = { promoteLongs: false, promoteBuffers: false, promoteValues: true };

/** One database operation as the Worker sends it to a gateway object (durable-objects/db-gateway.ts). */
export interface GatewayRequest {
  /** MONGODB_URI: the gateway keeps one client per server it is sent to. */
  uri: string;
  db: string;
  /** maxPoolSize of the client the gateway opens for `uri` (DB_POOL_SIZE). */
  poolSize: number;
  /** Absent for a database command (`store.db.command`). */
  collection?: string;
  method: string;
  /** The values (filters, documents, pipelines), encoded as the driver encodes them: `undefined` stored as null. */
  values: Carried;
  /** The options argument, undefined keys left out as the driver's option parsing expects. */
  options: Carried;
  /**
   * A command's fields whose documents arrive encoded (durable-objects/encoded-documents.ts): the documents'
   * BSON one after another, by field, left out of `values` and sent on as a document sequence.
   */
  sequences?: Record<string, Uint8Array>;
}

/** A value as it crosses RPC: a structured-clone copy with ObjectId markers, or BSON bytes for the other types. */
export type Carried = { plain: unknown } | { bson: Uint8Array };

/** How many leading arguments of each method are values; the one after them is the options argument. */
export const VALUE_ARGUMENTS: Record<string, number> = {
  find: 1,
  aggregate: 1,
  findOne: 1,
  countDocuments: 1,
  estimatedDocumentCount: 0,
  distinct: 2,
  insertOne: 1,
  insertMany: 1,
  updateOne: 2,
  updateMany: 2,
  replaceOne: 2,
  findOneAndUpdate: 2,
  findOneAndReplace: 2,
  findOneAndDelete: 1,
  deleteOne: 1,
  deleteMany: 1,
  bulkWrite: 1,
  createIndex: 1,
  createIndexes: 1,
  command: 1,
};

/** An operation's result or error, with the milliseconds the gateway object spent on it in the driver. */
export type GatewayReply = ({ ok: Carried } | { error: Uint8Array }) & { ms?: number };

function carry(value: unknown, ignoreUndefined: boolean): Carried {
  const plain = plainCopy(value, ignoreUndefined);
  if (plain !== NOT_PLAIN) return { plain };
  return { bson: BSON.serialize({ v: value }, { ignoreUndefined }) };
}

export function encodeValues(values: unknown[]): Carried {
  return carry(values, false);
}

export function encodeOptions(options: Document | undefined): Carried {
  return carry(options ?? {}, true);
}

export function encodeResult(value: unknown): Carried {
  return carry(value ?? null, false);
}

/** The carried value as the driver would hand it over; a plain one is revived in place (the receiver owns its clone). */
export function uncarry<T>(carried: Carried): T {
  return ('plain' in carried ? revivePlain(carried.plain) : decode(carried.bson)) as T;
}

export function decode<T>(bytes: Uint8Array): T {
  return BSON.deserialize(bytes, DECODE).v as T;
}

/** What survives of a driver error: its class name, MongoDB code and the fields the services read. */
export function encodeError(err: unknown): Uint8Array {
  const e = (err ?? {}) as Record<string, unknown> & Error;
  const writeErrors = err instanceof MongoBulkWriteError ? [err.writeErrors].flat().map((w) => w.toJSON()) : undefined;
  const result =
    err instanceof MongoBulkWriteError ? bulkCounts(err.result as unknown as Record<string, unknown>) : undefined;
  return BSON.serialize(
    {
      v: {
        name: e.name ?? 'Error',
        message: e.message ?? String(err),
        errorResponse: err instanceof MongoServerError ? err.errorResponse : undefined,
        code: e.code,
        codeName: e.codeName,
        keyValue: e.keyValue,
        keyPattern: e.keyPattern,
        errorLabels: err instanceof MongoError ? err.errorLabels : undefined,
        writeErrors,
        result,
      },
    },
    { ignoreUndefined: true },
  );
}

/** A BulkWriteResult's figures, without the class (its methods do not cross RPC). */
export function bulkCounts(result: Record<string, unknown>): Document {
  const { insertedCount, matchedCount, modifiedCount, deletedCount, upsertedCount, upsertedIds, insertedIds, ok } =
    result;
  return { insertedCount, matchedCount, modifiedCount, deletedCount, upsertedCount, upsertedIds, insertedIds, ok };
}

/**
 * The Worker-side error: a MongoServerError, MongoWriteConcernError or MongoBulkWriteError with its code (duplicate key 11000
 * stays 409 in worker/platform/http/on-error.ts), else an Error carrying the driver's class name, which
 * worker/platform/db/errors.ts reads to tell an unreachable database (503).
 */
export function decodeError(bytes: Uint8Array): Error {
  const e = decode<Document>(bytes);
  if (e.name === 'MongoBulkWriteError') {
    // Plain write errors with WriteError's fields (the class is not exported at runtime).
    const writeErrors = (e.writeErrors ?? []) as Document[];
    return new MongoBulkWriteError({ message: e.message, code: e.code, writeErrors } as never, e.result);
  }
  if (e.name === 'MongoServerError' && e.errorResponse) return new MongoServerError(e.errorResponse);
  // The reply the write concern failure came in: the write happened, as a direct client would be told.
  if (e.name === 'MongoWriteConcernError' && e.errorResponse?.writeConcernError)
    return new MongoWriteConcernError(e.errorResponse);
  const error = new Error(e.message);
  Object.defineProperty(error, 'name', { value: e.name });
  for (const key of ['code', 'codeName', 'keyValue', 'keyPattern', 'errorLabels'])
    if (e[key] !== undefined) Object.assign(error, { [key]: e[key] });
  return error;
}

/** The driver gives a new document (`_id` null or absent) an `_id` in place before sending it; the gateway path does the same, so callers can read it. */
export function assignIds(method: string, values: unknown[]): void {
  const give = (doc: unknown) => {
    if (doc && typeof doc === 'object' && (doc as Document)._id == null) (doc as Document)._id = new ObjectId();
  };
  if (method === 'insertOne') give(values[0]);
  if (method === 'insertMany') for (const doc of values[0] as unknown[]) give(doc);
  if (method === 'bulkWrite')
    for (const op of values[0] as Document[]) if (op.insertOne) give(op.insertOne.document ?? op.insertOne);
}

// An insertMany's reply leaves out insertedIds: they are the `_id`s the Worker gave its documents (assignIds) and still holds.

/** The gateway's reply to an insertMany: its result without insertedIds. */
export function withoutInsertedIds(method: string, result: unknown): unknown {
  if (method !== 'insertMany') return result;
  const { insertedIds: _, ...rest } = result as Document;
  return rest;
}

/** The Worker's insertMany result: insertedIds again, from the documents it sent, by their place in the batch. */
export function withInsertedIds(method: string, values: unknown[], result: unknown): unknown {
  if (method !== 'insertMany') return result;
  const insertedIds: Record<number, unknown> = {};
  (values[0] as Document[]).forEach((doc, index) => {
    insertedIds[index] = doc._id;
  });
  return { ...(result as Document), insertedIds };
}

/** A command without its document sequences, and their bytes by field (none: the command as it was). */
export function withoutSequences(command: Document): [Document, Record<string, Uint8Array> | undefined] {
  let sequences: Record<string, Uint8Array> | undefined;
  let rest: Document | undefined;
  for (const key of Object.keys(command)) {
    const value: unknown = command[key];
    if (!isDocumentSequence(value)) continue;
    rest ??= { ...command };
    delete rest[key];
    sequences ??= {};
    sequences[key] = sequenceBytes(value);
  }
  return [rest ?? command, sequences];
}

/** The command with its document sequences back in place, as the driver sends them. */
export function withSequences(command: Document, sequences: Record<string, Uint8Array>): Document {
  const whole: Document = { ...command };
  for (const [field, encoded] of Object.entries(sequences)) whole[field] = sequenceOf(field, splitDocuments(encoded));
  return whole;
}
