import type { Trick } from './reader';

/** A trick as its owner sees it (read by worker/riding/tricks/reader.ts). */
export function trickView(trick: Trick) {
  return {
    _id: trick._id.toHexString(),
    listId: trick.listId.toHexString(),
    name: trick.name,
    trickipediaId: trick.trickipediaId ? trick.trickipediaId.toHexString() : null,
    status: trick.status,
    attempts: trick.attempts,
    completed: trick.completed,
    landedAt: trick.landedAt ? trick.landedAt.toISOString() : null,
    createdAt: trick.createdAt.toISOString(),
    updatedAt: trick.updatedAt.toISOString(),
  };
}
