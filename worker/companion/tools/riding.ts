import type { ObjectId } from 'mongodb';
import type { Store } from '../../db/store';
import { LIMITS } from '../../limits';
import { searchSpots } from '../../spots/service';
import type { SPORTS } from '../../taxonomies';
import { searchEntries } from '../../trickipedia/service';
import { findTrickLists, insertTrickList } from '../../tricklists/service';
import { addTrick, findTricks } from '../../tricks/service';

// What the companion's tools do with the rider's riding data, through each resource's own service.

const rows = LIMITS.companion.toolRowsMax;
type Sport = (typeof SPORTS)[number];

export async function spotsFor(
  store: Store,
  query: { place?: string; near?: { lat: number; lng: number }; sport?: Sport; radiusKm?: number },
) {
  const found = await searchSpots(store, {
    q: query.place,
    near: query.near,
    sport: query.sport,
    radiusKm: query.near ? query.radiusKm : undefined,
    limit: rows,
    cursor: undefined,
  });
  return found.slice(0, rows).map((spot) => ({
    name: spot.name,
    city: spot.city ?? null,
    country: spot.country ?? null,
    sports: spot.sports ?? [],
    ...(spot.distanceMeters !== undefined ? { distanceKm: Math.round(spot.distanceMeters / 100) / 10 } : {}),
  }));
}

/** The rider's lists, newest first, each with its newest tricks. */
export async function trickListsOf(store: Store, userId: ObjectId) {
  const lists = (await findTrickLists(store, userId, { limit: rows })).slice(0, rows);
  return Promise.all(
    lists.map(async (list) => {
      const tricks = await findTricks(store, { userId, listId: list._id }, { limit: 20 });
      return {
        list: list.name,
        sport: list.sport,
        tricks: Array.isArray(tricks)
          ? tricks.slice(0, 20).map((trick) => ({ name: trick.name, status: trick.status }))
          : [],
      };
    }),
  );
}

/**
 * Adds a trick to the rider's list of that name, else to their newest list; a rider with no
 * list gets one, so "add kickflip to my list" always lands somewhere they can see it.
 */
export async function addTrickFor(
  store: Store,
  userId: ObjectId,
  input: { trick: string; list?: string; sport: Sport },
) {
  const lists = await findTrickLists(store, userId, { limit: LIMITS.pageSizeMax });
  const wanted = input.list?.trim().toLowerCase();
  const list =
    lists.find((row) => wanted && row.name.toLowerCase() === wanted) ??
    lists[0] ??
    (await insertTrickList(store, userId, { name: input.list?.trim() || 'My tricks', sport: input.sport }));
  const [entry] = await searchEntries(store, { q: input.trick, limit: 1 });
  const linked = entry && entry.name.toLowerCase() === input.trick.toLowerCase() ? entry._id : undefined;
  const trick = await addTrick(
    store,
    { userId, listId: list._id },
    { name: input.trick, status: 'todo', ...(linked ? { trickipediaId: linked } : {}) },
  );
  if (typeof trick === 'string') return { error: `could not add the trick: ${trick}` };
  return { added: trick.name, list: list.name, linkedToTrickipedia: Boolean(linked) };
}

/** The encyclopedia's entries whose name or alias contains the text. */
export async function trickipediaFor(store: Store, name: string) {
  const entries = (await searchEntries(store, { q: name, limit: 3 })).slice(0, 3);
  return entries.map((entry) => ({
    name: entry.name,
    sport: entry.sport,
    category: entry.category,
    difficulty: entry.difficulty ?? null,
    description: entry.description.slice(0, 600),
  }));
}
