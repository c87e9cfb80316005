import type { ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { normalizeText } from './identity';
import { titleSimilarity } from './title-similarity';

// venue.spotId: an event's venue is a known spot when the spot lies within
// SPOT_LINK_METRES of the venue's point and the names agree by the rule below.

export const SPOT_LINK_METRES = 150;

/** Names agree when one holds the other ("House Park" / "House Park Skatepark") or they are near-identical. */
export function spotNamesAgree(venueName: string | null | undefined, spotName: string | null | undefined): boolean {
  const [a, b] = [normalizeText(venueName), normalizeText(spotName)];
  if (!a || !b) return false;
  return a.includes(b) || b.includes(a) || titleSimilarity(a, b) >= 0.85;
}

/** The nearest agreeing spot within reach of the point, or null; one $geoNear on spots' 2dsphere index. */
export async function linkedSpotId(
  store: Store,
  venue: { name?: string | null; location?: { type: 'Point'; coordinates: [number, number] } | null },
): Promise<ObjectId | null> {
  if (!venue.location || !venue.name) return null;
  const near = await store.spots
    .aggregate<{ _id: ObjectId; name: string }>([
      {
        $geoNear: {
          near: venue.location,
          distanceField: 'distance',
          maxDistance: SPOT_LINK_METRES,
          key: 'location',
        },
      },
      { $limit: 5 },
      { $project: { name: 1 } },
    ])
    .toArray();
  return near.find((spot) => spotNamesAgree(venue.name, spot.name))?._id ?? null;
}
