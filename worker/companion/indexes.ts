import type { IndexDeclaration } from '../platform/db/indexes';

/** The indexes companion relies on, each with its reason (printed into migrations-notes/indexes.md). */
export const COMPANION_INDEXES: IndexDeclaration[] = [
  {
    collection: 'companion_profiles',
    key: { userId: 1 },
    options: { name: 'userId_unique', unique: true },
    why: 'one companion profile per user',
  },
  {
    collection: 'bot_chats',
    key: { userId: 1, createdAt: -1, _id: -1 },
    options: { name: 'userId_createdAt' },
    why: "the companion's memory: a rider's newest chat turns; account deletion",
  },
];
