import type { IndexDeclaration } from '../platform/db/indexes';

/** The indexes moderation relies on, each with its reason (printed into migrations-notes/indexes.md). */
export const MODERATION_INDEXES: IndexDeclaration[] = [
  {
    collection: 'moderator_actions',
    key: { subjectId: 1, _id: -1 },
    options: { name: 'subjectId_id' },
    why: "a rider's moderation history beside a report, newest first; account deletion",
  },
  {
    collection: 'moderator_actions',
    key: { actorId: 1 },
    options: { name: 'actorId' },
    why: 'account deletion detaches an admin from the actions they took',
  },
  {
    collection: 'moderation_terms',
    key: { term: 1 },
    options: { name: 'term_unique', unique: true },
    why: 'a term is listed once, blocked or allowed: two admins adding it at once store it once',
  },
];
