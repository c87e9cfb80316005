import { ObjectId } from 'mongodb';
import { OBJECTIONABLE_TEXT, refuseObjectionable } from '../../moderation/word-filter/refuse';
import type { AppEnv } from '../../platform/app-env';
import { ApiError } from '../../platform/http/errors';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
import { OPTIONAL_TOKEN_REFUSALS, optionalCaller, PUBLIC_OR_TOKEN } from '../../platform/middleware/optional-token';
import { orSuspended } from '../../platform/middleware/suspended';
import { callerOf } from '../../platform/tokens/service';
import { spotExists } from '../spots/service';
import { rankedPage } from './ranking';
import { STAY_REFUSALS } from './refusals';
import {
  DeletedStay,
  RankedListQuery,
  SpotParam,
  Stay,
  StayBody,
  StayPage,
  StayParams,
  StaySearchQuery,
} from './schema';
import { searchFilter, spotListFilter } from './search-filter';
import { type Caller, createStay, deleteStay, rankedStays, replaceStay } from './service';
import { rankedStayView, stayView } from './views';

const TAGS = ['stays'];
const noSpot = errorResponse('No such spot');
const adminsOnly = errorResponse('includeUnreviewed without an admin x-auth-token');
const notYours = errorResponse("Not the stay's creator, the spot's creator or an admin");
const conflict = errorResponse('The spot already has this stay (same name and type, or same bookingUrl), or is full');

const list = defineRoute({
  method: 'get',
  path: '/spots/{spotId}/stays',
  tags: TAGS,
  summary: "A spot's stays in the default ranking (confidence band, rating, distance); unreviewed ones hidden",
  security: PUBLIC_OR_TOKEN,
  request: { params: SpotParam, query: RankedListQuery },
  responses: {
    200: jsonResponse(StayPage, 'A page of stays'),
    ...OPTIONAL_TOKEN_REFUSALS,
    403: orSuspended(adminsOnly),
    404: noSpot,
  },
});

const create = defineRoute({
  method: 'post',
  path: '/spots/{spotId}/stays',
  tags: TAGS,
  summary: 'Add a stay to a spot',
  middleware: [auth()] as const,
  request: { params: SpotParam, ...jsonBody(StayBody) },
  responses: { 201: jsonResponse(Stay, 'The stay, created'), 404: noSpot, 409: conflict, ...OBJECTIONABLE_TEXT },
});

const replace = defineRoute({
  method: 'put',
  path: '/spots/{spotId}/stays/{stayId}',
  tags: TAGS,
  summary: "Replace a stay's fields (its creator, the spot's creator or an admin); a repeated PUT changes nothing",
  middleware: [auth()] as const,
  request: { params: StayParams, ...jsonBody(StayBody) },
  responses: {
    200: jsonResponse(Stay, 'The stay as stored; updatedAt moves only when a field changed'),
    403: notYours,
    404: errorResponse('No such spot, or no such stay on it'),
    409: conflict,
    ...OBJECTIONABLE_TEXT,
  },
});

const remove = defineRoute({
  method: 'delete',
  path: '/spots/{spotId}/stays/{stayId}',
  tags: TAGS,
  summary: "Delete a stay (its creator, the spot's creator or an admin); safe to repeat",
  middleware: [auth()] as const,
  request: { params: StayParams },
  responses: {
    200: jsonResponse(DeletedStay, 'deleted: true, or false when the stay was already gone'),
    403: notYours,
    404: noSpot,
  },
});

const search = defineRoute({
  method: 'get',
  path: '/stays/search',
  tags: TAGS,
  summary: 'Search stays across spots, in the default ranking; each stay carries its spotId and spotName',
  security: PUBLIC_OR_TOKEN,
  request: { query: StaySearchQuery },
  responses: {
    200: jsonResponse(StayPage, 'A page of stays'),
    ...OPTIONAL_TOKEN_REFUSALS,
    403: orSuspended(adminsOnly),
  },
});

type Ctx = {
  env: AppEnv['Bindings'];
  var: AppEnv['Variables'];
  req: { method: string; path: string; header(name: string): string | undefined };
};

/**
 * includeUnreviewed on these public routes is for admins: the optional x-auth-token must verify
 * and its account be stored as admin now; no token or another rider's is a 403 rather than a silently
 * different list, and a bad one is refused as the auth check refuses it (worker/platform/middleware/optional-token.ts).
 */
async function requireAdminFor(c: Ctx, includeUnreviewed: boolean): Promise<void> {
  if (!includeUnreviewed) return;
  if (!(await optionalCaller(c))?.isAdmin)
    throw new ApiError(403, "includeUnreviewed is for admins: send an admin's x-auth-token.");
}

const caller = (c: Ctx): Caller => callerOf(c.var.account);

/** Stays: the spot-scoped routes and the search, mounted under /api. */
export const stayRoutes = createRouter<AppEnv>()
  .openapi(list, async (c) => {
    const spotId = new ObjectId(c.req.valid('param').spotId);
    const { limit, cursor, includeUnreviewed } = c.req.valid('query');
    await requireAdminFor(c, includeUnreviewed);
    if (!(await spotExists(c.var.db, spotId))) throw refusal(STAY_REFUSALS, 'spot-not-found');
    const rows = await rankedStays(c.var.db, spotListFilter(spotId, includeUnreviewed), { limit, after: cursor });
    return c.json(rankedPage(rows, limit, rankedStayView), 200);
  })
  .openapi(create, async (c) => {
    const spotId = new ObjectId(c.req.valid('param').spotId);
    const stay = c.req.valid('json');
    await refuseObjectionable(c, { notes: stay.notes });
    const written = await createStay(c.var.db, spotId, stay, new ObjectId(c.var.user._id));
    if (!('stay' in written)) throw refusal(STAY_REFUSALS, written);
    return c.json(stayView(written.stay, { spotId, spotName: written.spotName }), 201);
  })
  .openapi(replace, async (c) => {
    const { spotId, stayId } = c.req.valid('param');
    const id = new ObjectId(spotId);
    const stay = c.req.valid('json');
    await refuseObjectionable(c, { notes: stay.notes });
    const written = await replaceStay(c.var.db, id, stayId.toLowerCase(), stay, caller(c));
    if (!('stay' in written)) throw refusal(STAY_REFUSALS, written);
    return c.json(stayView(written.stay, { spotId: id, spotName: written.spotName }), 200);
  })
  .openapi(remove, async (c) => {
    const { spotId } = c.req.valid('param');
    // Stored stay ids are lower-case hex (ObjectId.toHexString()), and so is the answer.
    const stayId = c.req.valid('param').stayId.toLowerCase();
    const outcome = await deleteStay(c.var.db, new ObjectId(spotId), stayId, caller(c));
    if (outcome.outcome === 'deleted' || outcome.outcome === 'not-found') {
      return c.json({ deleted: outcome.outcome === 'deleted', stayId }, 200);
    }
    throw refusal(STAY_REFUSALS, outcome);
  })
  .openapi(search, async (c) => {
    const query = c.req.valid('query');
    await requireAdminFor(c, query.includeUnreviewed);
    const rows = await rankedStays(c.var.db, searchFilter(query), { limit: query.limit, after: query.cursor });
    return c.json(rankedPage(rows, query.limit, rankedStayView), 200);
  });
