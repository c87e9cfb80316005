import type { TrickListDoc } from '../documents';
import { DEFAULT_REMINDER_CADENCE } from './schema';

/** A stored list as its owner sees it; the owner id stays inside (it is always the caller). */
export function trickListView(list: TrickListDoc) {
  return {
    _id: list._id.toHexString(),
    name: list.name,
    sport: list.sport,
    reminderCadence: list.reminderCadence ?? DEFAULT_REMINDER_CADENCE,
    lastOpenedAt: list.lastOpenedAt ? list.lastOpenedAt.toISOString() : null,
    createdAt: list.createdAt.toISOString(),
    updatedAt: list.updatedAt.toISOString(),
  };
}

export const trickListWithCountView = (list: TrickListDoc, trickCount: number) => ({
  ...trickListView(list),
  trickCount,
});
