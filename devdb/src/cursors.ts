import { randomBytes } from 'node:crypto';
import { BSON, Long } from 'bson';
import { fail } from './errors.js';
import type { Doc } from './values.js';

export const DEFAULT_BATCH_SIZE = 101;
/** Leaves headroom under the 16 MiB reply limit for the envelope fields. */
const MAX_BATCH_BYTES = 16 * 1024 * 1024 - 64 * 1024;
export const CURSOR_IDLE_MS = 10 * 60 * 1000;

interface ServerCursor {
  id: Long;
  ns: string;
  docs: Doc[];
  pos: number;
  lastUsed: number;
}

export interface CursorReply extends Doc {
  cursor: { firstBatch?: Doc[]; nextBatch?: Doc[]; id: Long; ns: string };
}

/**
 * Results are materialised when the cursor opens; getMore pages through the
 * array. Stored documents are immutable, so the pages are a stable snapshot.
 */
export class CursorRegistry {
  private readonly cursors = new Map<string, ServerCursor>();

  /** Takes the first batch; keeps the rest server-side unless `singleBatch`. */
  open(ns: string, docs: Doc[], batchSize: number | undefined, singleBatch = false): CursorReply {
    const batch = takeBatch(docs, 0, batchSize ?? DEFAULT_BATCH_SIZE);
    if (singleBatch || batch.length === docs.length) {
      return { cursor: { firstBatch: batch, id: Long.ZERO, ns } };
    }
    const id = newCursorId();
    this.cursors.set(id.toString(), { id, ns, docs, pos: batch.length, lastUsed: Date.now() });
    return { cursor: { firstBatch: batch, id, ns } };
  }

  getMore(id: Long, ns: string, batchSize: number | undefined): CursorReply {
    const key = id.toString();
    const cur = this.cursors.get(key);
    if (!cur) fail('CursorNotFound', `cursor id ${key} not found`);
    if (cur.ns !== ns) {
      fail(
        'Unauthorized',
        `Requested getMore on namespace '${ns}', but cursor belongs to a different namespace ${cur.ns}`,
      );
    }
    // Without a batchSize, getMore returns as much as fits in one reply.
    const batch = takeBatch(cur.docs, cur.pos, batchSize ? batchSize : Infinity);
    cur.pos += batch.length;
    cur.lastUsed = Date.now();
    if (cur.pos >= cur.docs.length) {
      this.cursors.delete(key);
      return { cursor: { nextBatch: batch, id: Long.ZERO, ns } };
    }
    return { cursor: { nextBatch: batch, id: cur.id, ns } };
  }

  kill(ids: Long[]): { cursorsKilled: Long[]; cursorsNotFound: Long[] } {
    const cursorsKilled: Long[] = [];
    const cursorsNotFound: Long[] = [];
    for (const id of ids) {
      if (this.cursors.delete(id.toString())) cursorsKilled.push(id);
      else cursorsNotFound.push(id);
    }
    return { cursorsKilled, cursorsNotFound };
  }

  /** Drops cursors idle for longer than `idleMs`, as mongod's cursor timeout does. */
  sweep(now = Date.now(), idleMs = CURSOR_IDLE_MS): void {
    for (const [key, cur] of this.cursors) {
      if (now - cur.lastUsed > idleMs) this.cursors.delete(key);
    }
  }

  get size(): number {
    return this.cursors.size;
  }

  clear(): void {
    this.cursors.clear();
  }
}

function newCursorId(): Long {
  const raw = randomBytes(8).readBigUInt64LE() & 0x3fffffffffffffffn;
  return Long.fromBigInt(raw === 0n ? 1n : raw);
}

function takeBatch(docs: Doc[], start: number, max: number): Doc[] {
  const end = Math.min(docs.length, start + Math.max(0, max));
  let bytes = 0;
  for (let i = start; i < end; i++) {
    bytes += BSON.calculateObjectSize(docs[i]!);
    // Always return at least one document so a cursor can make progress.
    if (bytes > MAX_BATCH_BYTES && i > start) return docs.slice(start, i);
  }
  return docs.slice(start, end);
}
