import { type Collection, type Db, type Document, MongoServerError } from 'mongodb';
import { isDuplicateKey } from './errors';

/** One document the server refused, as an `insert` command's reply lists it. */
interface WriteErrorReply {
  index: number;
  code: number;
  errmsg?: string;
}

/** What an `insert` command answers. */
interface InsertReply {
  n?: number;
  writeErrors?: WriteErrorReply[];
  writeConcernError?: { code: number; errmsg?: string };
}

/**
 * Inserts documents unordered and returns the positions a unique index refused (E11000): a retry, or two copies
 * racing, stores one document and the others learn they were duplicates. Any other refusal is thrown. Every
 * document must carry its `_id`. One `insert` command rather than `insertMany`: the driver's bulk path serializes
 * each document twice (once to measure it) and builds a result per id, which a batch that only needs the refused
 * positions does not use. `db` is the collection's database (a Store's `db`). The caller bounds the batch well under the server's limits (100,000 documents, 48 MB).
 */
export async function insertKeepingFirst<T extends Document>(
  db: Db,
  collection: Collection<T>,
  documents: T[],
): Promise<Set<number>> {
  if (!documents.length) return new Set();
  const reply = (await db.command({
    insert: collection.collectionName,
    documents,
    ordered: false,
  })) as InsertReply;
  const refused = reply.writeErrors ?? [];
  const other = refused.find((writeError) => !isDuplicateKey(writeError));
  if (other) throw new MongoServerError({ ...other, message: other.errmsg ?? 'write refused', ok: 0 });
  if (reply.writeConcernError) {
    const { code, errmsg } = reply.writeConcernError;
    throw new MongoServerError({ code, message: errmsg ?? 'write concern failed', ok: 0 });
  }
  return new Set(refused.map((writeError) => writeError.index));
}
