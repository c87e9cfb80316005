import type { Context } from 'hono';
import { ObjectId } from 'mongodb';
import { accountExists, publicUsers } from '../../accounts/users/service';
import { publicUserView } from '../../accounts/users/views';
import type { AppEnv } from '../../platform/app-env';
import { readId } from '../../platform/db/stored-values';
import { createRouter, defineRoute, errorResponse, jsonResponse } from '../../platform/http/openapi';
import { PageQuery, toPage } from '../../platform/http/pagination';
import { refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
import { OPTIONAL_TOKEN_REFUSALS, PUBLIC_OR_TOKEN } from '../../platform/middleware/optional-token';
import { publishAfterWrite } from '../../platform/realtime/publish';
import { hiddenFrom, readerOf } from '../feed/reader';
import { reachable } from './reach';
import { FOLLOW_REFUSALS } from './refusals';
import { FollowState, HomiePage, ListedRiderPage, RiderParam } from './schema';
import { follow, followedAmong, listFollowers, listFollowing, listHomies, otherOf, unfollow } from './service';
import { listedRiderView } from './views';

const TAGS = ['connections'];
const noRider = errorResponse('No such rider, or a block stands between you');

const put = defineRoute({
  method: 'put',
  path: '/{id}/follow',
  tags: TAGS,
  summary: 'Follow a rider (idempotent); following each other makes you homies',
  description:
    "Answers your state toward the rider and the rider's counts. The rider's `/feed` connections receive `rider:followed` when the follow is new (docs/connections.md).",
  middleware: [auth()] as const,
  request: { params: RiderParam },
  responses: {
    200: jsonResponse(FollowState, 'Following'),
    400: errorResponse('You cannot follow yourself'),
    404: noRider,
  },
});

const remove = defineRoute({
  method: 'delete',
  path: '/{id}/follow',
  tags: TAGS,
  summary: 'Stop following a rider (idempotent); ends being homies',
  middleware: [auth()] as const,
  request: { params: RiderParam },
  responses: {
    200: jsonResponse(FollowState, 'Not following'),
    400: errorResponse('You cannot follow yourself'),
    404: noRider,
  },
});

const followers = defineRoute({
  method: 'get',
  path: '/{id}/followers',
  tags: TAGS,
  summary: "A rider's followers, newest follow first",
  description: 'With a valid `x-auth-token`, each rider carries `following`: whether you follow them.',
  security: PUBLIC_OR_TOKEN,
  request: { params: RiderParam, query: PageQuery },
  responses: { 200: jsonResponse(ListedRiderPage, 'A page of riders'), ...OPTIONAL_TOKEN_REFUSALS, 404: noRider },
});

const following = defineRoute({
  method: 'get',
  path: '/{id}/following',
  tags: TAGS,
  summary: 'The riders a rider follows, newest follow first',
  description: 'With a valid `x-auth-token`, each rider carries `following`: whether you follow them.',
  security: PUBLIC_OR_TOKEN,
  request: { params: RiderParam, query: PageQuery },
  responses: { 200: jsonResponse(ListedRiderPage, 'A page of riders'), ...OPTIONAL_TOKEN_REFUSALS, 404: noRider },
});

const homies = defineRoute({
  method: 'get',
  path: '/me/homies',
  tags: TAGS,
  summary: 'Your homies (riders you follow who follow you back), newest first',
  middleware: [auth()] as const,
  request: { query: PageQuery },
  responses: { 200: jsonResponse(HomiePage, 'A page of riders') },
});

/** The caller and the rider the path names, once the rider is known to exist and no block stands between them. */
async function followTarget(c: Context<AppEnv>, id: string) {
  const callerId = new ObjectId(c.var.user._id);
  const riderId = new ObjectId(id);
  if (callerId.equals(riderId)) throw refusal(FOLLOW_REFUSALS, 'self');
  if (!(await reachable(c.var.db, callerId, riderId))) throw refusal(FOLLOW_REFUSALS, 'not-found');
  return { callerId, riderId };
}

/** A page of riders from follow rows, each named by `pick`; riders deleted mid-request are skipped. */
async function riderPage<T extends { _id: ObjectId }>(
  c: Context<AppEnv>,
  rows: T[],
  limit: number,
  pick: (row: T) => unknown,
  readerId: ObjectId | null,
) {
  const page = toPage(rows, limit, (row) => row);
  // A follow row naming no usable rider has nobody to list.
  const ids = page.items.flatMap((row) => readId(pick(row)) ?? []);
  const [users, followed] = await Promise.all([
    publicUsers(c.var.db, ids),
    readerId ? followedAmong(c.var.db, readerId, ids) : undefined,
  ]);
  const items = ids.flatMap((id) => {
    const user = users.get(id.toHexString());
    return user ? [listedRiderView(user, followed)] : [];
  });
  return { items, nextCursor: page.nextCursor };
}

/** Following riders and the lists it makes, mounted under /api/users. */
export const followRoutes = createRouter<AppEnv>()
  .openapi(homies, async (c) => {
    const query = c.req.valid('query');
    const callerId = new ObjectId(c.var.user._id);
    const rows = await listHomies(c.var.db, callerId, query);
    const page = toPage(rows, query.limit, (row) => row);
    const ids = page.items.flatMap((row) => otherOf(row.riderIds, callerId) ?? []);
    const users = await publicUsers(c.var.db, ids);
    const items = ids.flatMap((id) => {
      const user = users.get(id.toHexString());
      return user ? [publicUserView(user)] : [];
    });
    return c.json({ items, nextCursor: page.nextCursor }, 200);
  })
  .openapi(put, async (c) => {
    const { callerId, riderId } = await followTarget(c, c.req.valid('param').id);
    const { changed, state } = await follow(c.var.db, callerId, riderId);
    if (changed) {
      const event = {
        namespace: '/feed' as const,
        name: 'rider:followed' as const,
        payload: { follower: publicUserView(c.var.account), homie: state.homie },
      };
      publishAfterWrite(c, event, () => ({ riders: [riderId.toHexString()] }));
    }
    return c.json(state, 200);
  })
  .openapi(remove, async (c) => {
    const { callerId, riderId } = await followTarget(c, c.req.valid('param').id);
    return c.json((await unfollow(c.var.db, callerId, riderId)).state, 200);
  })
  .openapi(followers, async (c) => {
    const query = c.req.valid('query');
    const riderId = new ObjectId(c.req.valid('param').id);
    const [{ readerId, hidden }, exists] = await Promise.all([readerOf(c), accountExists(c.var.db, riderId)]);
    // A rider on either side of a block with the reader, suspended or withheld, reads as not found and is left out.
    if (!exists || hiddenFrom(hidden, riderId)) throw refusal(FOLLOW_REFUSALS, 'not-found');
    const rows = await listFollowers(
      c.var.db,
      riderId,
      query,
      [...hidden].map((hex) => new ObjectId(hex)),
    );
    return c.json(await riderPage(c, rows, query.limit, (row) => row.followerId, readerId), 200);
  })
  .openapi(following, async (c) => {
    const query = c.req.valid('query');
    const riderId = new ObjectId(c.req.valid('param').id);
    const [{ readerId, hidden }, exists] = await Promise.all([readerOf(c), accountExists(c.var.db, riderId)]);
    // A rider on either side of a block with the reader, suspended or withheld, reads as not found and is left out.
    if (!exists || hiddenFrom(hidden, riderId)) throw refusal(FOLLOW_REFUSALS, 'not-found');
    const rows = await listFollowing(
      c.var.db,
      riderId,
      query,
      [...hidden].map((hex) => new ObjectId(hex)),
    );
    return c.json(await riderPage(c, rows, query.limit, (row) => row.followedId, readerId), 200);
  });
