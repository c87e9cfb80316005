import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { readEach } from '../../platform/db/stored-values';
import { createRouter, defineRoute, jsonResponse } from '../../platform/http/openapi';
import { LIMITS } from '../../platform/limits';
import { auth } from '../../platform/middleware/auth';
import { countSpotLists, listSpotLists } from '../spot-lists/service';
import { storedSpotListView } from '../spot-lists/views';
import { readTrickList } from '../tricklists/reader';
import { countTrickLists, findTrickLists } from '../tricklists/service';
import { trickListWithCountView } from '../tricklists/views';
import { countTricksPerList } from '../tricks/service';
import { Listings } from './schema';

const listings = defineRoute({
  method: 'get',
  path: '/',
  tags: ['listings'],
  summary: 'Your trick lists and spot lists in one answer, with counts',
  description: `The newest ${LIMITS.pageSizeMax} of each; page further with GET /api/tricklists and GET /api/spotlists.`,
  middleware: [auth()] as const,
  responses: { 200: jsonResponse(Listings, 'Your lists') },
});

/** The caller's list data (interface spec, Listings), mounted at /api/listings. */
export const listingRoutes = createRouter<AppEnv>().openapi(listings, async (c) => {
  const userId = new ObjectId(c.var.user._id);
  const page = { limit: LIMITS.pageSizeMax };
  const [trickLists, spotLists, trickListTotal, spotListTotal] = await Promise.all([
    findTrickLists(c.var.db, userId, page),
    listSpotLists(c.var.db, userId, page),
    countTrickLists(c.var.db, userId),
    countSpotLists(c.var.db, userId),
  ]);
  const shownTrickLists = readEach('tricklists', trickLists.slice(0, page.limit), readTrickList);
  const trickCounts = await countTricksPerList(
    c.var.db,
    userId,
    shownTrickLists.map((list) => list._id),
  );
  return c.json(
    {
      tricklists: shownTrickLists.map((list) =>
        trickListWithCountView(list, trickCounts.get(list._id.toHexString()) ?? 0),
      ),
      spotlists: readEach('spotlists', spotLists.slice(0, page.limit), storedSpotListView),
      counts: { tricklists: trickListTotal, spotlists: spotListTotal },
    },
    200,
  );
});
