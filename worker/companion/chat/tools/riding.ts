import type { ObjectId } from 'mongodb';
import type { Store } from '../../../platform/db/store';
import type { Env } from '../../../platform/env';
import { LIMITS } from '../../../platform/limits';
import { retrievalMode, semanticSearch } from '../../../platform/retrieval/vector-search';
import type { SPORTS } from '../../../platform/sports';
import { type FoundSpot, searchSpots } from '../../../riding/spots/service';
import { searchEntries } from '../../../riding/trickipedia/service';
import { findTrickLists, insertTrickList } from '../../../riding/tricklists/service';
import { addTrick, findTricks } from '../../../riding/tricks/service';

// What the companion's tools do with the rider's riding data, through each resource's own service.

const rows = LIMITS.companion.toolRowsMax;
type Sport = (typeof SPORTS)[number];

export async function spotsFor(
  store: Store,
  env: Env,
  query: { place?: string; near?: { lat: number; lng: number }; sport?: Sport; radiusKm?: number },
) {
  // By meaning when a vector store is bound; a search near coordinates stays the database's (distance decides).
  const found =
    query.place && !query.near && retrievalMode(env) === 'semantic'
      ? await spotsByMeaning(store, env, query.place, query.sport)
      : await searchSpots(store, {
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

/** Spots nearest in meaning to the text, best first, of the sport when one is given (the stored documents decide). */
async function spotsByMeaning(store: Store, env: Env, text: string, sport: Sport | undefined): Promise<FoundSpot[]> {
  const ids = await semanticSearch(env, 'spot', text, { topK: rows * 4 });
  const found = await store.spots.find({ _id: { $in: ids }, ...(sport ? { sports: sport } : {}) }).toArray();
  return byRank(ids, found);
}

/** Documents in the order of the search's ids (an id whose document is gone is skipped). */
const byRank = <T extends { _id: ObjectId }>(ids: ObjectId[], docs: T[]) =>
  ids.flatMap((id) => docs.filter((doc) => doc._id.equals(id)));

async function entriesByMeaning(store: Store, env: Env, text: string) {
  const ids = await semanticSearch(env, 'trick', text, { topK: 3 });
  return byRank(ids, await store.trickipedia.find({ _id: { $in: ids } }).toArray());
}

/**
 * The encyclopedia's entries nearest in meaning to the text when a vector store is bound, else
 * those whose name or alias contains it.
 */
export async function trickipediaFor(store: Store, env: Env, name: string) {
  const entries =
    retrievalMode(env) === 'semantic'
      ? await entriesByMeaning(store, env, name)
      : (await searchEntries(store, { q: name, limit: 3 })).slice(0, 3);
  return entries.map((entry) => ({
    name: entry.name,
    sport: entry.sport,
    category: entry.category,
    difficulty: entry.difficulty ?? null,
    description: entry.description.slice(0, 600),
  }));
}
