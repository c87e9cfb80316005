import { ObjectId } from 'mongodb';
import { publicUsers } from '../../accounts/users/service';
import type { AppEnv } from '../../platform/app-env';
import { readEach } from '../../platform/db/stored-values';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { PageQuery } from '../../platform/http/pagination';
import { toReadPage } from '../../platform/http/read-pages';
import { refusal } from '../../platform/http/refusals';
import { LIMITS } from '../../platform/limits';
import { auth } from '../../platform/middleware/auth';
import { spotExists } from '../spots/service';
import { entryExists } from '../trickipedia/service';
import { readSpotTrickLanding } from './reader';
import { LANDING_REFUSALS } from './refusals';
import { Landing, LandingBody, LandingPage, SpotParam } from './schema';
import { listLandings, recordLanding } from './service';
import { landingView } from './views';

const TAGS = ['spot trick history'];
const noSpot = errorResponse('No such spot');

const list = defineRoute({
  method: 'get',
  path: '/{spotId}/trick-history',
  tags: TAGS,
  summary: 'Who landed which trick at this spot, most recently recorded first',
  request: { params: SpotParam, query: PageQuery },
  responses: { 200: jsonResponse(LandingPage, 'A page of landings'), 404: noSpot },
});

const record = defineRoute({
  method: 'post',
  path: '/{spotId}/trick-history',
  tags: TAGS,
  summary: 'Record that you landed a trick at this spot',
  middleware: [auth()] as const,
  request: { params: SpotParam, ...jsonBody(LandingBody) },
  responses: { 201: jsonResponse(Landing, 'Recorded'), 404: noSpot },
});

/** Spot trick history, mounted under /api/spots. */
export const spotTrickHistoryRoutes = createRouter<AppEnv>()
  .openapi(list, async (c) => {
    const spotId = new ObjectId(c.req.valid('param').spotId);
    if (!(await spotExists(c.var.db, spotId))) throw refusal(LANDING_REFUSALS, 'spot-not-found');
    const query = c.req.valid('query');
    const rows = await listLandings(c.var.db, spotId, query);
    const landings = readEach('spot_trick_history', rows.slice(0, query.limit), readSpotTrickLanding);
    const riders = await publicUsers(
      c.var.db,
      landings.flatMap((landing) => landing.userId ?? []),
    );
    const page = toReadPage('spot_trick_history', rows, query.limit, (row) => {
      const landing = readSpotTrickLanding(row);
      return landing && landingView(landing, landing.userId && riders.get(landing.userId.toHexString()));
    });
    return c.json(page, 200);
  })
  .openapi(record, async (c) => {
    const spotId = new ObjectId(c.req.valid('param').spotId);
    const body = c.req.valid('json');
    if (!(await spotExists(c.var.db, spotId))) throw refusal(LANDING_REFUSALS, 'spot-not-found');
    const landedAt = body.landedAt ? new Date(body.landedAt) : new Date();
    if (landedAt.getTime() > Date.now() + LIMITS.landedAtSkewMs) throw refusal(LANDING_REFUSALS, 'landed-in-future');
    const trickipediaId = body.trickipediaId ? new ObjectId(body.trickipediaId) : undefined;
    if (trickipediaId && !(await entryExists(c.var.db, trickipediaId))) {
      throw refusal(LANDING_REFUSALS, 'trickipedia-not-found');
    }
    const userId = new ObjectId(c.var.user._id);
    const landing = await recordLanding(c.var.db, {
      spotId,
      userId,
      trickName: body.trickName,
      landedAt,
      ...(trickipediaId ? { trickipediaId } : {}),
      ...(body.videoUrl ? { videoUrl: body.videoUrl } : {}),
    });
    const riders = await publicUsers(c.var.db, [userId]);
    return c.json(landingView(landing, riders.get(userId.toHexString())), 201);
  });
