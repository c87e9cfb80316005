import type { Context } from 'hono';
import type { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { tokenCaller } from '../../platform/tokens/service';
import { blockedIdsOf } from '../blocks/service';

/** Public feed reads: with a valid token in x-auth-token the caller reads as themselves. */
export const PUBLIC_OR_READER: Record<string, string[]>[] = [{}, { 'x-auth-token': [] }];

/**
 * The reader behind an optional x-auth-token (a bad or missing token reads as the public), and the
 * authors they blocked, whose posts and comments they never see (worker/social/blocks/service.ts).
 */
export async function readerOf(c: Context<AppEnv>): Promise<{ readerId: ObjectId | null; hidden: Set<string> }> {
  const readerId = (await tokenCaller(c.env, c.var.db, c.req.header('x-auth-token')))?.userId ?? null;
  return { readerId, hidden: await blockedIdsOf(c.var.db, readerId) };
}

/** Whether the reader blocked the author. */
export const hiddenFrom = (hidden: Set<string>, authorId: ObjectId) => hidden.has(authorId.toHexString());
