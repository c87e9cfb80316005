import {
  BSON,
  type Document,
  MongoInvalidArgumentError,
  MongoServerError,
  MongoWriteConcernError,
  type WriteConcernErrorResult,
} from 'mongodb';
import { type InsertReply, RETRYABLE_WRITE_CODES, splitInsertReply } from './insert-reply';

/**
 * Whether a command is an unordered insert of encoded documents with nothing else set (as
 * worker/platform/db/insert-keeping-first.ts sends it): `command` without its document sequence, `sequences` that
 * sequence's bytes. Its documents are independent of each other and answered one by one, so several such commands
 * into one collection can travel as one with the same outcome for each document.
 */
export function isGroupableInsert(
  command: Document,
  sequences: Record<string, Uint8Array>,
  options: Document,
): command is { insert: string; ordered: false } {
  const keys = Object.keys(command);
  const fields = Object.keys(sequences);
  return (
    Object.keys(options).length === 0 &&
    keys.length === 2 &&
    keys[0] === 'insert' &&
    typeof command.insert === 'string' &&
    command.ordered === false &&
    fields.length === 1 &&
    fields[0] === 'documents' &&
    // No documents: the server refuses the command alone, which in a group would be answered as nothing refused.
    sequences.documents!.length > 0
  );
}

/**
 * Errors that say the command itself was refused before any document was written (one document the encoder or the
 * server would not take, a command too large): sent apart, each part meets only its own outcome. Network
 * errors, the retryable-write codes and write concern failures are not among them: the combined write may have
 * happened (a write concern failure says it did), so every part learns of the failure, as it would have alone.
 */
function refusedWhole(err: unknown): boolean {
  if (err instanceof BSON.BSONError || err instanceof MongoInvalidArgumentError) return true;
  if (!(err instanceof MongoServerError) || err instanceof MongoWriteConcernError) return false;
  const code = err.code;
  return typeof code === 'number' && !RETRYABLE_WRITE_CODES.has(code) && !err.hasErrorLabel('RetryableWriteError');
}

interface Waiting<Item> {
  documents: Item[];
  /** The documents' lengths summed. */
  bytes: number;
  resolve: (reply: InsertReply & Document) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for one collection: while an insert is on its way, the inserts that arrive wait and then go
 * together as one command, up to `maxDocuments` and `maxBytes` (the items' lengths: an encoded document's is
 * its size), so that a group stays within the server's message size wherever its parts do. A lone insert is
 * sent at once, so grouping adds no wait of its own; under load, a batch's fixed costs (the command's encoding machinery, a round trip, the server's
 * per-command work) are paid once for several. One command at a time per collection: the database takes a
 * big insert about as fast as several small ones, and a queue that forms is exactly what the next command
 * carries.
 */
export class InsertGroup<Item extends { readonly length: number }> {
  private readonly waiting: Waiting<Item>[] = [];
  private sending = false;

  constructor(
    private readonly send: (documents: Item[]) => Promise<InsertReply & Document>,
    private readonly maxDocuments: number,
    private readonly maxBytes: number,
  ) {}

  insert(documents: Item[]): Promise<InsertReply & Document> {
    const bytes = documents.reduce((total, document) => total + document.length, 0);
    return new Promise((resolve, reject) => {
      this.waiting.push({ documents, bytes, resolve, reject });
      if (!this.sending) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.sending = true;
    try {
      while (this.waiting.length) {
        const taken = this.take();
        // Whatever fails in between, each part settles (settling one twice does nothing), and the queue moves on.
        await this.sendNext(taken).catch((err: unknown) => {
          for (const part of taken) part.reject(err);
        });
      }
    } finally {
      this.sending = false;
    }
  }

  /** The oldest waiting insert, and those after it that fit with it under maxDocuments and maxBytes. */
  private take(): Waiting<Item>[] {
    const taken = [this.waiting.shift()!];
    let count = taken[0]!.documents.length;
    let bytes = taken[0]!.bytes;
    for (let next = this.waiting[0]; next; next = this.waiting[0]) {
      if (count + next.documents.length > this.maxDocuments || bytes + next.bytes > this.maxBytes) break;
      taken.push(this.waiting.shift()!);
      count += next.documents.length;
      bytes += next.bytes;
    }
    return taken;
  }

  private async sendNext(taken: Waiting<Item>[]): Promise<void> {
    if (taken.length === 1) return this.sendAlone(taken[0]!);
    const sizes = taken.map((part) => part.documents.length);
    let reply: InsertReply & Document;
    try {
      reply = await this.send(taken.flatMap((part) => part.documents));
    } catch (err) {
      if (err instanceof MongoWriteConcernError) {
        // The driver throws the reply that carries a write concern failure: each part gets its own share of it.
        const parts = splitInsertReply(err.result as InsertReply & Document, sizes);
        for (const [i, part] of taken.entries()) {
          const own = new MongoWriteConcernError(parts[i] as WriteConcernErrorResult);
          for (const label of err.errorLabels) own.addErrorLabel(label);
          part.reject(own);
        }
        return;
      }
      if (!refusedWhole(err)) {
        for (const part of taken) part.reject(err);
        return;
      }
      await Promise.all(taken.map((part) => this.sendAlone(part)));
      return;
    }
    const parts = splitInsertReply(reply, sizes);
    for (const [i, part] of taken.entries()) part.resolve(parts[i]!);
  }

  private async sendAlone(part: Waiting<Item>): Promise<void> {
    try {
      part.resolve(await this.send(part.documents));
    } catch (err) {
      part.reject(err);
    }
  }
}
