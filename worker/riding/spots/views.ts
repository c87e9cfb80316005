import type { SpotDoc } from '../documents';
import { isShownStay } from '../stays/search-filter';

/** The spot's rating, computed from its reviews (worker/riding/spot-reviews/service.ts). */
type Rating = { ratingAverage: number | null; reviewCount: number };

/** A spot as every client sees it; spots stored without `stays`, `location` or timestamps are valid too. */
export function spotView(spot: SpotDoc & { distanceMeters?: number }, rating?: Rating) {
  const [lng, lat] = spot.location?.coordinates ?? [];
  return {
    _id: spot._id.toHexString(),
    name: spot.name,
    sports: spot.sports ?? [],
    location: lat !== undefined && lng !== undefined ? { lat, lng } : null,
    ...(spot.description ? { description: spot.description } : {}),
    ...(spot.address ? { address: spot.address } : {}),
    ...(spot.city ? { city: spot.city } : {}),
    ...(spot.state ? { state: spot.state } : {}),
    ...(spot.country ? { country: spot.country } : {}),
    createdBy: spot.createdBy ? spot.createdBy.toHexString() : null,
    // What the spot's stays list shows, counted from the same read of the spot, so never off by a hidden stay.
    stayCount: Array.isArray(spot.stays) ? spot.stays.filter(isShownStay).length : 0,
    ...(rating ?? {}),
    // Metres from the database's $geoNear, to the metre.
    ...(spot.distanceMeters !== undefined ? { distanceKm: Math.round(spot.distanceMeters) / 1000 } : {}),
    // Spots stored before timestamps were kept fall back to their id's creation time.
    createdAt: (spot.createdAt ?? spot._id.getTimestamp()).toISOString(),
    updatedAt: (spot.updatedAt ?? spot.createdAt ?? spot._id.getTimestamp()).toISOString(),
  };
}
