import { ObjectId } from 'mongodb';
import { publicUsers } from '../../accounts/users/service';
import type { AppEnv } from '../../platform/app-env';
import { readEach } from '../../platform/db/stored-values';
import { createRouter, defineRoute, errorResponse, jsonResponse } from '../../platform/http/openapi';
import { PageQuery, toPage } from '../../platform/http/pagination';
import { refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
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

/** Blocking riders, mounted under /api/users. */
export const blockRoutes = createRouter<AppEnv>()
  .openapi(block, async (c) => {
    const { userId } = c.req.valid('param');
    const callerId = new ObjectId(c.var.user._id);
    if (callerId.equals(userId)) throw refusal(BLOCK_REFUSALS, 'self');
    const outcome = await blockUser(c.var.db, callerId, new ObjectId(userId));
    if (outcome === 'not-found') throw refusal(BLOCK_REFUSALS, outcome);
    return c.json({ userId, blocked: true }, 200);
  })
  .openapi(unblock, async (c) => {
    const { userId } = c.req.valid('param');
    await unblockUser(c.var.db, new ObjectId(c.var.user._id), new ObjectId(userId));
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
