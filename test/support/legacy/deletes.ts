import { at, firstStayId, hex, type LegacyWrite, under } from './writes';

/** The deletions, run after the edits and the jobs: a rider's own documents, then an admin's, then accounts. */
export const LEGACY_DELETES: LegacyWrite[] = [
  {
    collection: 'tricks',
    as: 'owner',
    method: 'DELETE',
    path: (d) => at('/api/tricklists', under(hex(d.listId), 'tricks', hex(d._id))),
  },
  {
    collection: 'spot_reviews',
    as: 'owner',
    method: 'DELETE',
    path: (d) => at('/api/spots', under(hex(d.spotId), 'reviews', hex(d._id))),
  },
  {
    collection: 'feed_comments',
    as: 'owner',
    method: 'DELETE',
    path: (d) => at('/api/feed', under(hex(d.postId), 'comments', hex(d._id))),
  },
  {
    collection: 'spots',
    as: 'owner',
    method: 'DELETE',
    path: (d) => at('/api/spots', under(hex(d._id), 'stays', firstStayId(d))),
    every: 3,
  },
  { collection: 'tricklists', as: 'owner', method: 'DELETE', path: (d) => at('/api/tricklists', under(hex(d._id))) },
  { collection: 'spotlists', as: 'owner', method: 'DELETE', path: (d) => at('/api/spotlists', under(hex(d._id))) },
  { collection: 'feed_posts', as: 'owner', method: 'DELETE', path: (d) => at('/api/feed', under(hex(d._id))) },
  { collection: 'pushTokens', as: 'owner', method: 'DELETE', path: (d) => at('/api/push-tokens', under(hex(d.token))) },
  {
    collection: 'eventSubscriptions',
    as: 'owner',
    method: 'DELETE',
    path: (d) => at('/api/event-subscriptions', under(hex(d._id))),
  },
  { collection: 'spots', as: 'admin', method: 'DELETE', path: (d) => at('/api/spots', under(hex(d._id))), every: 2 },
  { collection: 'trickipedia', as: 'admin', method: 'DELETE', path: (d) => at('/api/trickipedia', under(hex(d._id))) },
  { collection: 'blog', as: 'admin', method: 'DELETE', path: (d) => at('/api/blog', under(hex(d._id))) },
  { collection: 'categories', as: 'admin', method: 'DELETE', path: (d) => at('/api/categories', under(hex(d._id))) },
  // Each runs every domain's cleanup: a quarter of the variants shows them over legacy riders in bounded time.
  { collection: 'users', as: 'admin', method: 'DELETE', path: (d) => at('/api/users', under(hex(d._id))), every: 4 },
];
