import { ObjectId } from 'mongodb';
import { readPublicUser } from '../../accounts/users/read-user';
import { PublicUser } from '../../accounts/users/schema';
import { publicUsers } from '../../accounts/users/service';
import { publicUserView } from '../../accounts/users/views';
import type { AppEnv } from '../../platform/app-env';
import { createRouter, defineRoute, errorResponse, jsonResponse, RETRY_AFTER } from '../../platform/http/openapi';
import { pageOf } from '../../platform/http/pagination';
import { toReadPage } from '../../platform/http/read-pages';
import { refusal } from '../../platform/http/refusals';
import { LIMITS } from '../../platform/limits';
import { auth } from '../../platform/middleware/auth';
import { OPTIONAL_TOKEN_REFUSALS, PUBLIC_OR_TOKEN } from '../../platform/middleware/optional-token';
import { hiddenAuthorsFor, hiddenFrom, readerOf } from '../feed/reader';
import { reachable } from '../follows/reach';
import { FOLLOW_REFUSALS } from '../follows/refusals';
import { RiderParam } from '../follows/schema';
import { RiderProfile, RiderSearchQuery } from './schema';
import { riderSearchLimit } from './search-limit';
import { profileOf, searchRiders } from './service';

const TAGS = ['connections'];

const search = defineRoute({
  method: 'get',
  path: '/search',
  tags: TAGS,
  summary: 'Find riders by name: each word typed is the start of a word of their name',
  description: `Any case, accents ignored (\`jose ram\` finds José Ramírez; \`mirez\` does not). Never by email; riders you blocked or who blocked you are left out. Newest account first. At most ${LIMITS.riderSearch.perRider} searches a minute per rider and ${LIMITS.riderSearch.perAddress} per client address (settings RIDER_SEARCHES_PER_MINUTE, RIDER_SEARCHES_PER_ADDRESS_PER_MINUTE); then 429 with Retry-After.`,
  middleware: [auth(), riderSearchLimit()] as const,
  request: { query: RiderSearchQuery },
  responses: {
    200: jsonResponse(pageOf(PublicUser), 'A page of riders'),
    400: errorResponse('q shorter than 2 characters or without a letter or digit'),
    429: errorResponse(
      'Too many searches this minute, by you or from your address; Retry-After gives the seconds to wait',
      RETRY_AFTER,
    ),
  },
});

const profile = defineRoute({
  method: 'get',
  path: '/{id}/profile',
  tags: TAGS,
  summary: "A rider's public profile: who they are and their counts",
  description:
    'With a valid `x-auth-token`, `relationship` says whether you follow the rider, they follow you, and whether you are homies. 404 when a block stands between you, or while the rider is suspended or withheld (docs/moderation.md).',
  security: PUBLIC_OR_TOKEN,
  request: { params: RiderParam },
  responses: {
    200: jsonResponse(RiderProfile, 'The profile'),
    ...OPTIONAL_TOKEN_REFUSALS,
    404: errorResponse('No such rider, or a block stands between you'),
  },
});

/** Riders' profiles and rider search, mounted under /api/users. */
export const profileRoutes = createRouter<AppEnv>()
  .openapi(search, async (c) => {
    const query = c.req.valid('query');
    const callerId = new ObjectId(c.var.user._id);
    const rows = await searchRiders(c.var.db, query, await hiddenAuthorsFor(c, callerId));
    return c.json(
      toReadPage('users', rows, query.limit, (row) => {
        const user = readPublicUser(row);
        return user && publicUserView(user);
      }),
      200,
    );
  })
  .openapi(profile, async (c) => {
    const riderId = new ObjectId(c.req.valid('param').id);
    const { readerId, hidden } = await readerOf(c);
    // A suspended or withheld rider's profile reads as not found to everyone else while it lasts.
    if (hiddenFrom(hidden, riderId) || !(await reachable(c.var.db, readerId, riderId)))
      throw refusal(FOLLOW_REFUSALS, 'not-found');
    const [users, counts] = await Promise.all([
      publicUsers(c.var.db, [riderId]),
      profileOf(c.var.db, riderId, readerId),
    ]);
    const user = users.get(riderId.toHexString());
    if (!user) throw refusal(FOLLOW_REFUSALS, 'not-found');
    return c.json({ user: publicUserView(user), ...counts }, 200);
  });
