import type { Cleanup } from '../platform/db/personal-data';

/**
 * What deleting an account does to the companion collections. Every collection that can hold something of a
 * rider's has its rule here; a test scans all collections after a deletion and fails on anything that
 * still names the rider.
 */
export const COMPANION_PERSONAL_DATA: Cleanup[] = [
  { collection: 'bot_chats', remove: (userId) => ({ userId }) },
  { collection: 'companion_profiles', remove: (userId) => ({ userId }) },
  // The companion's DM turns (worker/companion/chat/transcript.ts) are the rider's alone: they go, before the detach below.
  { collection: 'dm_messages', remove: (userId) => ({ userId, companion: true }) },
];
