import { ObjectId } from 'mongodb';
import { OBJECTIONABLE_TEXT, refuseObjectionable } from '../../moderation/word-filter/refuse';
import type { AppEnv } from '../../platform/app-env';
import type { Store } from '../../platform/db/store';
import { readEach } from '../../platform/db/stored-values';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
import { indexDocuments, keepIndexed, unindexDocuments } from '../../platform/retrieval/vector-search';
import { callerOf } from '../../platform/tokens/service';
import { spotDocument } from '../search-index/documents';
import { removeSpotFromAllLists } from '../spot-lists/service';
import { ratingSummaries, ratingSummary } from '../spot-reviews/service';
import { encodePosition, encodeSyncCursor } from './position';
import { readSpot } from './reader';
import { SPOT_REFUSALS } from './refusals';
import {
  DeletedSpot,
  NewSpotBody,
  Spot,
  SpotChangesBody,
  SpotPage,
  SpotParam,
  SpotSearchQuery,
  SpotSync,
  SyncQuery,
} from './schema';
import { deleteSpot, findSpot, insertSpot, positionOf, searchSpots, syncSpots, updateSpot } from './service';
import { spotView } from './views';

const TAGS = ['spots'];
const noSpot = errorResponse('No such spot');
const notYours = errorResponse('Not your spot (only its creator or an admin may change it)');

const listSpots = defineRoute({
  method: 'get',
  path: '/',
  tags: TAGS,
  summary: 'Search spots: by name or city, sport, and distance from a point',
  request: { query: SpotSearchQuery },
  responses: { 200: jsonResponse(SpotPage, 'A page of spots; nearest first when near is given, else newest first') },
});

const sync = defineRoute({
  method: 'get',
  path: '/sync',
  tags: TAGS,
  summary: "The browser extension's sync: spots changed and deleted since its last cursor",
  description:
    'Walks changes in (updatedAt, _id) order. Without `since` (or when the cursor is older than the deletions kept) it is a full sync and `reset` is true. Call again with `nextCursor` while `hasMore`; store the last `nextCursor` for the next sync.',
  request: { query: SyncQuery },
  responses: { 200: jsonResponse(SpotSync, 'One page of changes') },
});

const createSpot = defineRoute({
  method: 'post',
  path: '/',
  tags: TAGS,
  summary: 'Add a spot',
  middleware: [auth()] as const,
  request: jsonBody(NewSpotBody),
  responses: { 201: jsonResponse(Spot, 'The new spot'), ...OBJECTIONABLE_TEXT },
});

const getSpot = defineRoute({
  method: 'get',
  path: '/{spotId}',
  tags: TAGS,
  summary: 'One spot',
  request: { params: SpotParam },
  responses: { 200: jsonResponse(Spot, 'The spot'), 404: noSpot },
});

const patchSpot = defineRoute({
  method: 'patch',
  path: '/{spotId}',
  tags: TAGS,
  summary: 'Change a spot (its creator or an admin)',
  middleware: [auth()] as const,
  request: { params: SpotParam, ...jsonBody(SpotChangesBody) },
  responses: {
    200: jsonResponse(Spot, 'The changed spot'),
    400: errorResponse("A new city, state or country contradicts one of the spot's stays (`details` names the fields)"),
    403: notYours,
    404: noSpot,
    ...OBJECTIONABLE_TEXT,
  },
});

const removeSpot = defineRoute({
  method: 'delete',
  path: '/{spotId}',
  tags: TAGS,
  summary: 'Delete a spot (its creator or an admin)',
  middleware: [auth()] as const,
  request: { params: SpotParam },
  responses: { 200: jsonResponse(DeletedSpot, 'Deleted'), 403: notYours, 404: noSpot },
});

/** What a spot's deletion asks of the feed, handed in where the app is composed. */
export interface SpotFeedLinks {
  /** Posts about the spot stay and stop naming it. */
  detachSpotFromPosts(store: Store, spotId: ObjectId): Promise<void>;
}

/** Spots: public reads, signed-in creation, changes by the creator or an admin. */
export const spotRoutes = ({ detachSpotFromPosts }: SpotFeedLinks) =>
  createRouter<AppEnv>()
    .openapi(listSpots, async (c) => {
      const query = c.req.valid('query');
      const rows = await searchSpots(c.var.db, query);
      const fetched = rows.slice(0, query.limit);
      // The walk goes on after the last fetched spot that has a position, shown or not.
      const last = rows.length > query.limit ? fetched.map(positionOf).reverse().find(Boolean) : undefined;
      const spots = readEach('spots', fetched, readSpot);
      const ratings = await ratingSummaries(
        c.var.db,
        spots.map((spot) => spot._id),
      );
      return c.json(
        {
          items: spots.map((spot) => spotView(spot, ratings.get(spot._id.toHexString()))),
          nextCursor: last ? encodePosition(last) : null,
        },
        200,
      );
    })
    .openapi(sync, async (c) => {
      const { since, limit } = c.req.valid('query');
      const page = await syncSpots(c.var.db, since, limit);
      return c.json(
        {
          spots: page.spots.map((spot) => spotView(spot)),
          deletedIds: page.deletedIds.map((id) => id.toHexString()),
          nextCursor: encodeSyncCursor(page.next),
          hasMore: page.hasMore,
          reset: page.reset,
        },
        200,
      );
    })
    .openapi(createSpot, async (c) => {
      const body = c.req.valid('json');
      await refuseObjectionable(c, { name: body.name, description: body.description });
      const spot = await insertSpot(c.var.db, new ObjectId(c.var.user._id), body);
      keepIndexed(c.env, c.var.inBackground, 'spot', () => indexDocuments(c.env, 'spot', [spotDocument(spot)]));
      return c.json(spotView(spot, { ratingAverage: null, reviewCount: 0 }), 201);
    })
    .openapi(getSpot, async (c) => {
      const spot = await findSpot(c.var.db, new ObjectId(c.req.valid('param').spotId));
      if (!spot) throw refusal(SPOT_REFUSALS, 'not-found');
      return c.json(spotView(spot, await ratingSummary(c.var.db, spot._id)), 200);
    })
    .openapi(patchSpot, async (c) => {
      const id = new ObjectId(c.req.valid('param').spotId);
      const changes = c.req.valid('json');
      await refuseObjectionable(c, { name: changes.name, description: changes.description });
      const result = await updateSpot(c.var.db, id, callerOf(c.var.account), changes);
      if (typeof result === 'string' || 'outcome' in result) throw refusal(SPOT_REFUSALS, result);
      keepIndexed(c.env, c.var.inBackground, 'spot', () => indexDocuments(c.env, 'spot', [spotDocument(result)]));
      return c.json(spotView(result, await ratingSummary(c.var.db, result._id)), 200);
    })
    .openapi(removeSpot, async (c) => {
      const id = new ObjectId(c.req.valid('param').spotId);
      const outcome = await deleteSpot(c.var.db, id, callerOf(c.var.account));
      if (outcome !== 'deleted') throw refusal(SPOT_REFUSALS, outcome);
      // Its reviews and landings stay, unreachable; spot lists and posts stop naming it.
      await Promise.all([removeSpotFromAllLists(c.var.db, id), detachSpotFromPosts(c.var.db, id)]);
      keepIndexed(c.env, c.var.inBackground, 'spot', () => unindexDocuments(c.env, 'spot', [id]));
      return c.json({ deleted: true as const, spotId: id.toHexString() }, 200);
    });
