import type { TrickList } from './reader';

/** A list as its owner sees it (read by worker/riding/tricklists/reader.ts); the owner id stays inside. */
export function trickListView(list: TrickList) {
  return {
    _id: list._id.toHexString(),
    name: list.name,
    sport: list.sport,
    reminderCadence: list.reminderCadence,
    lastOpenedAt: list.lastOpenedAt ? list.lastOpenedAt.toISOString() : null,
    createdAt: list.createdAt.toISOString(),
    updatedAt: list.updatedAt.toISOString(),
  };
}

export const trickListWithCountView = (list: TrickList, trickCount: number) => ({
  ...trickListView(list),
  trickCount,
});
