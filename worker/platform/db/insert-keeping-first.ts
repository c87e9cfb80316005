import { type Collection, type Db, type Document, MongoServerError, MongoWriteConcernError } from 'mongodb';
import { encodedDocuments } from '../../../durable-objects/encoded-documents';
import { type InsertReply, RETRYABLE_WRITE_CODES } from '../../../durable-objects/insert-reply';
import { isDuplicateKey } from './errors';

/**
 * The server may or may not have stored the batch: it could not confirm the write concern, or its primary
 * stepped down or shut down mid-write. The driver's insertMany would have retried once; a raw command is not
 * retried, so the client is answered 503 and resends: every document carries its `_id` and unique keys, so
 * what the first attempt stored comes back as a duplicate, never twice (worker/platform/db/errors.ts).
 */
export class DatabaseWriteUnconfirmedError extends Error {
  override readonly name = 'DatabaseWriteUnconfirmedError';
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

/** The refused positions of an `insert` reply; a write concern failure or any refusal but E11000 is thrown. */
export function refusedPositions(reply: InsertReply): Set<number> {
  const refused = reply.writeErrors ?? [];
  const other = refused.find((writeError) => !isDuplicateKey(writeError));
  if (other) throw new MongoServerError({ ...other, message: other.errmsg ?? 'write refused', ok: 0 });
  if (reply.writeConcernError) {
    const { code, errmsg } = reply.writeConcernError;
    throw new DatabaseWriteUnconfirmedError(`write concern failed: ${errmsg ?? code}`, code);
  }
  return new Set(refused.map((writeError) => writeError.index));
}

/** A command error after which the insert may be resent becomes DatabaseWriteUnconfirmedError; others pass. */
export function unconfirmedOr(err: unknown): unknown {
  const code = (err as { code?: unknown }).code;
  // The driver throws a reply that carries a write concern failure rather than returning it: the write happened.
  if (err instanceof MongoWriteConcernError)
    return new DatabaseWriteUnconfirmedError(`write concern failed: ${err.message}`, Number(code));
  if (err instanceof MongoServerError && typeof code === 'number' && RETRYABLE_WRITE_CODES.has(code))
    return new DatabaseWriteUnconfirmedError(err.message, code);
  return err;
}

/**
 * Inserts documents unordered and returns the positions a unique index refused (E11000): a retry, or two copies
 * racing, stores one document and the others learn they were duplicates. Any other refusal is thrown. Every
 * document must carry its `_id`. One `insert` command rather than `insertMany`: the driver's bulk path serializes
 * each document twice (once to measure it) and builds a result per id, which a batch that only needs the refused
 * positions does not use. The documents are encoded here, once, and travel as those bytes to the server
 * (durable-objects/encoded-documents.ts). `db` is the collection's database (a Store's `db`). One command carries
 * every document and is not split, so the caller bounds the batch well under the limits: the documents are
 * encoded together as one BSON document (16 MB in all, the encoder's buffer), 100,000 documents a command.
 */
export async function insertKeepingFirst<T extends Document>(
  db: Db,
  collection: Collection<T>,
  documents: T[],
): Promise<Set<number>> {
  if (!documents.length) return new Set();
  const reply = (await db
    .command({ insert: collection.collectionName, documents: encodedDocuments('documents', documents), ordered: false })
    .catch((err: unknown) => {
      throw unconfirmedOr(err);
    })) as InsertReply;
  return refusedPositions(reply);
}
