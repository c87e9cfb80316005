import type { Document } from 'mongodb';

/** One document the server refused, as an `insert` command's reply lists it. */
interface WriteErrorReply {
  index: number;
  code: number;
  errmsg?: string;
}

/** What an `insert` command answers. */
export interface InsertReply {
  n?: number;
  writeErrors?: WriteErrorReply[];
  writeConcernError?: { code: number; errmsg?: string };
}

/**
 * Server errors after which a write may be resent, as MongoDB's retryable-writes rule lists them: the node
 * was unreachable, shutting down, or no longer primary.
 */
export const RETRYABLE_WRITE_CODES = new Set([6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436]);

/**
 * One combined reply cut back into each command's: its refused documents, counted from its own first document,
 * and what it stored. A write concern failure concerns every part of the write, so each part carries it.
 */
export function splitInsertReply(reply: InsertReply & Document, sizes: number[]): (InsertReply & Document)[] {
  const { n: _, writeErrors = [], ...rest } = reply;
  const starts: number[] = [];
  let total = 0;
  for (const size of sizes) {
    starts.push(total);
    total += size;
  }
  const own = sizes.map((): NonNullable<InsertReply['writeErrors']> => []);
  for (const writeError of writeErrors) {
    const part = lastAtOrBelow(starts, writeError.index);
    own[part]!.push({ ...writeError, index: writeError.index - starts[part]! });
  }
  return sizes.map((size, i) => {
    const refused = own[i]!;
    return refused.length ? { ...rest, n: size - refused.length, writeErrors: refused } : { ...rest, n: size };
  });
}

/** The position of the last of the ascending `starts` at or below `index` (0 when none is). */
function lastAtOrBelow(starts: number[], index: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= index) low = middle;
    else high = middle - 1;
  }
  return low;
}
