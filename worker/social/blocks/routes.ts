import type { Context } from 'hono';
import { ObjectId } from 'mongodb';
import { publicUsers } from '../../accounts/users/service';
import type { AppEnv } from '../../platform/app-env';
import { readEach } from '../../platform/db/stored-values';
import { createRouter, defineRoute, errorResponse, jsonResponse } from '../../platform/http/openapi';
import { PageQuery, toPage } from '../../platform/http/pagination';
import { refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
import { logError } from '../../platform/ops/log-line';
import { relationsChanged } from '../../platform/realtime/directory';
import { readBlock } from '../stored-moderation';
import { BLOCK_REFUSALS } from './refusals';
import { BlockPage, BlockParam, BlockState } from './schema';
import { blockUser, listBlocks, unblockUser } from './service';
import { blockedUserView } from './views';

const TAGS = ['moderation'];

const block = defineRoute({
  method: 'put',
  path: '/me/blocks/{userId}',
  tags: TAGS,
  summary:
    "Block a rider (idempotent): each of you stops seeing, commenting on, reacting to and saving the other's posts, their comments leave your posts, and neither can message the other (docs/connections.md)",
  middleware: [auth()] as const,
  request: { params: BlockParam },
  responses: {
    200: jsonResponse(BlockState, 'Blocked'),
    400: errorResponse('You cannot block yourself'),
    404: errorResponse('No such rider'),
  },
});

const unblock = defineRoute({
  method: 'delete',
  path: '/me/blocks/{userId}',
  tags: TAGS,
  summary: 'Unblock a rider (idempotent)',
  middleware: [auth()] as const,
  request: { params: BlockParam },
  responses: { 200: jsonResponse(BlockState, 'Not blocked') },
});

const list = defineRoute({
  method: 'get',
  path: '/me/blocks',
  tags: TAGS,
  summary: 'The riders you blocked, newest block first',
  middleware: [auth()] as const,
  request: { query: PageQuery },
  responses: { 200: jsonResponse(BlockPage, 'A page of blocked riders') },
});

/**
 * Tells the real-time rooms, before the answer, that the two riders' relation changed, so a typing indicator checked
 * against what a shard remembered cannot cross a block just made. A failure is logged: the block stands, and what the
 * shards remember expires within a minute (LIMITS.realtime.peerCacheMs).
 */
async function tellRooms(c: Context<AppEnv>, riders: ObjectId[]): Promise<void> {
  try {
    await relationsChanged(
      c.env,
      riders.map((id) => id.toHexString()),
    );
  } catch (error) {
    logError('blocks: tell the real-time rooms', error, c.var.requestId);
  }
}

/** Blocking riders, mounted under /api/users. */
export const blockRoutes = createRouter<AppEnv>()
  .openapi(block, async (c) => {
    const { userId } = c.req.valid('param');
    const callerId = new ObjectId(c.var.user._id);
    if (callerId.equals(userId)) throw refusal(BLOCK_REFUSALS, 'self');
    const blockedId = new ObjectId(userId);
    const outcome = await blockUser(c.var.db, callerId, blockedId);
    if (outcome === 'not-found') throw refusal(BLOCK_REFUSALS, outcome);
    await tellRooms(c, [callerId, blockedId]);
    return c.json({ userId, blocked: true }, 200);
  })
  .openapi(unblock, async (c) => {
    const { userId } = c.req.valid('param');
    const [callerId, blockedId] = [new ObjectId(c.var.user._id), new ObjectId(userId)];
    await unblockUser(c.var.db, callerId, blockedId);
    await tellRooms(c, [callerId, blockedId]);
    return c.json({ userId, blocked: false }, 200);
  })
  .openapi(list, async (c) => {
    const query = c.req.valid('query');
    // The cursor moves on the blocks as fetched, also past one left out as unreadable.
    const page = toPage(await listBlocks(c.var.db, new ObjectId(c.var.user._id), query), query.limit, (row) => row);
    const blocks = readEach('user_blocks', page.items, readBlock);
    const users = await publicUsers(
      c.var.db,
      blocks.map((row) => row.blockedUserId),
    );
    // Account deletion removes blocks naming the deleted rider; one deleted mid-request is skipped.
    const items = blocks.flatMap((row) => {
      const user = users.get(row.blockedUserId.toHexString());
      return user ? [blockedUserView(row, user)] : [];
    });
    return c.json({ items, nextCursor: page.nextCursor }, 200);
  });
