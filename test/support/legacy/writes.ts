import type { Document } from 'mongodb';

/**
 * The writes a rider (or, for the encyclopedia and accounts, an admin) makes on stored documents, one row per
 * route, applied to every document of the row's collection that the caller may write: the owner's own legacy
 * documents, an admin's every document. `rider` calls as the account the document names in `userId` (a
 * companion profile is written by its own rider's chat). `edits` run first, then the jobs, then `deletes`.
 */
export interface LegacyWrite {
  collection: string;
  as: 'owner' | 'admin' | 'rider';
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The route's path for one stored document; undefined when the document gives no way to name it. */
  path(doc: Document): string | undefined;
  /** The body, or how to make it from the stored document. */
  json?: unknown | ((doc: Document) => unknown);
  /** Only the collection's first (clean) document: a write whose effect does not depend on which one. */
  once?: true;
  /** Over the clean documents and every n-th variant only: a second write on the same fields, or a costly one, kept in bounds. */
  every?: number;
}

export const hex = (value: unknown) => (value === undefined || value === null ? undefined : String(value));
export const firstStayId = (doc: Document) => hex((Array.isArray(doc.stays) ? doc.stays[0] : undefined)?._id);
export const firstSpotId = (doc: Document) => hex(Array.isArray(doc.spotIds) ? doc.spotIds[0] : undefined);
export const under = (...parts: (string | undefined)[]) =>
  parts.every((part) => part !== undefined && part !== '')
    ? parts.map((p) => encodeURIComponent(p!)).join('/')
    : undefined;
export const at = (prefix: string, rest: string | undefined, suffix = '') =>
  rest ? `${prefix}/${rest}${suffix}` : undefined;

const stayBody = { name: 'Legacy hostel, updated', type: 'hostel', priceLevel: 2 };
const entryBody = {
  name: 'Legacy kickflip, revised',
  sport: 'skateboarding',
  category: 'legacy-category-0',
  description: 'Flick the board with the front foot, revised.',
};

export const LEGACY_EDITS: LegacyWrite[] = [
  {
    collection: 'tricklists',
    as: 'owner',
    method: 'PATCH',
    path: (d) => at('/api/tricklists', under(hex(d._id))),
    json: { name: 'Renamed legacy list' },
  },
  {
    collection: 'tricklists',
    as: 'owner',
    method: 'PUT',
    path: (d) => at('/api/users/me/reminder-cadence', under(hex(d._id))),
    json: { cadence: 'daily' },
    every: 3,
  },
  {
    collection: 'tricks',
    as: 'owner',
    method: 'POST',
    path: (d) => at('/api/tricklists', under(hex(d.listId), 'tricks', hex(d._id)), '/attempts'),
  },
  {
    collection: 'tricks',
    as: 'owner',
    method: 'PATCH',
    path: (d) => at('/api/tricklists', under(hex(d.listId), 'tricks', hex(d._id))),
    json: { name: 'Renamed legacy trick', status: 'learning' },
    every: 3,
  },
  {
    collection: 'tricks',
    as: 'owner',
    method: 'POST',
    path: (d) => at('/api/tricklists', under(hex(d.listId), 'tricks', hex(d._id)), '/land'),
    every: 3,
  },
  {
    collection: 'tricks',
    as: 'owner',
    method: 'POST',
    path: (d) => at('/api/tricklists', under(hex(d.listId)), '/tricks'),
    json: { name: 'Added to a legacy list' },
    once: true,
  },
  {
    collection: 'spots',
    as: 'owner',
    method: 'PATCH',
    path: (d) => at('/api/spots', under(hex(d._id))),
    json: { description: 'Resurfaced.' },
    every: 2,
  },
  // Over the spot every legacy review and landing hangs off: the answer reads them.
  {
    collection: 'spots',
    as: 'owner',
    method: 'POST',
    path: (d) => at('/api/spots', under(hex(d._id)), '/reviews'),
    json: { rating: 5, text: 'Still good.' },
    once: true,
  },
  {
    collection: 'spots',
    as: 'owner',
    method: 'POST',
    path: (d) => at('/api/spots', under(hex(d._id)), '/trick-history'),
    json: { trickName: 'Ollie' },
    once: true,
  },
  {
    collection: 'spots',
    as: 'owner',
    method: 'POST',
    path: (d) => at('/api/spots', under(hex(d._id)), '/stays'),
    json: { name: 'Newer hostel', type: 'hostel' },
    every: 3,
  },
  {
    collection: 'spots',
    as: 'owner',
    method: 'PUT',
    path: (d) => at('/api/spots', under(hex(d._id), 'stays', firstStayId(d))),
    json: stayBody,
  },
  {
    collection: 'spotlists',
    as: 'owner',
    method: 'PATCH',
    path: (d) => at('/api/spotlists', under(hex(d._id))),
    json: { name: 'Renamed legacy spots' },
  },
  {
    collection: 'spotlists',
    as: 'owner',
    method: 'PUT',
    path: (d) => at('/api/spotlists', under(hex(d._id), 'spots', hex(d.spotIds?.[1] ?? d._id))),
  },
  {
    collection: 'spotlists',
    as: 'owner',
    method: 'DELETE',
    path: (d) => at('/api/spotlists', under(hex(d._id), 'spots', firstSpotId(d))),
  },
  {
    collection: 'feed_posts',
    as: 'owner',
    method: 'PUT',
    path: (d) => at('/api/feed', under(hex(d._id)), '/reactions'),
    json: { type: 'respect' },
  },
  {
    collection: 'feed_posts',
    as: 'owner',
    method: 'POST',
    path: (d) => at('/api/feed', under(hex(d._id)), '/comments'),
    json: { text: 'Nice one' },
    every: 3,
  },
  {
    collection: 'feed_posts',
    as: 'owner',
    method: 'PUT',
    path: (d) => at('/api/feed', under(hex(d._id)), '/save'),
    every: 3,
  },
  {
    collection: 'reactions',
    as: 'owner',
    method: 'PUT',
    path: (d) => at('/api/feed', under(hex(d.postId)), '/reactions'),
    json: { type: 'respect' },
  },
  {
    collection: 'reactions',
    as: 'owner',
    method: 'DELETE',
    path: (d) => at('/api/feed', under(hex(d.postId)), '/reactions'),
  },
  {
    collection: 'saved_posts',
    as: 'owner',
    method: 'DELETE',
    path: (d) => at('/api/feed', under(hex(d.postId)), '/save'),
  },
  {
    collection: 'conversations',
    as: 'owner',
    method: 'POST',
    path: (d) => at('/api/conversations', under(hex(d._id)), '/read'),
    json: {},
  },
  {
    collection: 'conversations',
    as: 'owner',
    method: 'POST',
    path: (d) => at('/api/conversations', under(hex(d._id)), '/messages'),
    json: { text: 'Still riding?' },
    every: 3,
  },
  {
    collection: 'companion_profiles',
    as: 'rider',
    method: 'POST',
    path: () => '/api/bot-chat/message',
    json: { message: 'Hey, I landed it' },
  },
  {
    collection: 'bot_chats',
    as: 'owner',
    method: 'POST',
    path: () => '/api/dm',
    json: { message: 'Remember me?' },
    once: true,
  },
  {
    collection: 'pushTokens',
    as: 'owner',
    method: 'POST',
    path: (d) => (typeof d.token === 'string' && d.token ? '/api/push-tokens' : undefined),
    // The same token again: registration meets the legacy document stored under it.
    json: (d: Document) => ({ platform: 'ios', transport: 'gateway', token: d.token }),
  },
  {
    collection: 'events',
    as: 'owner',
    method: 'POST',
    path: (d) => at('/api/events', under(hex(d._id)), '/save'),
    every: 4,
  },
  {
    collection: 'events',
    as: 'owner',
    method: 'PATCH',
    path: (d) => at('/api/events', under(hex(d._id)), '/relationship'),
    json: { relationship: 'going' },
    every: 2,
  },
  {
    collection: 'event_saves',
    as: 'owner',
    method: 'DELETE',
    path: (d) => at('/api/events', under(hex(d.eventId)), '/save'),
  },
  {
    collection: 'eventSubscriptions',
    as: 'owner',
    method: 'PATCH',
    path: (d) => at('/api/event-subscriptions', under(hex(d._id))),
    json: { name: 'Renamed legacy filter' },
  },
  {
    collection: 'scheduledNotifications',
    as: 'owner',
    method: 'POST',
    path: (d) => at('/api/users/me/scheduled-notifications', under(hex(d._id)), '/delivered'),
    json: {},
  },
  {
    collection: 'trickipedia',
    as: 'admin',
    method: 'PUT',
    path: (d) => at('/api/trickipedia', under(hex(d._id))),
    json: entryBody,
  },
  {
    collection: 'blog',
    as: 'admin',
    method: 'PATCH',
    path: (d) => at('/api/blog', under(hex(d._id))),
    json: { excerpt: 'Updated.' },
  },
  {
    collection: 'categories',
    as: 'admin',
    method: 'PATCH',
    path: (d) => at('/api/categories', under(hex(d._id))),
    json: { name: 'Renamed category' },
  },
  {
    collection: 'users',
    as: 'admin',
    method: 'PATCH',
    path: (d) => at('/api/admin/users', under(hex(d._id))),
    json: { role: null },
  },
];
