import { isShownStay } from '../stays/search-filter';
import type { Spot } from './reader';

/** The spot's rating, computed from its reviews (worker/riding/spot-reviews/service.ts). */
type Rating = { ratingAverage: number | null; reviewCount: number };

/** A spot as every client sees it (read by worker/riding/spots/reader.ts). */
export function spotView(spot: Spot, rating?: Rating) {
  return {
    _id: spot._id.toHexString(),
    name: spot.name,
    sports: spot.sports,
    location: spot.location,
    ...(spot.description ? { description: spot.description } : {}),
    ...(spot.address ? { address: spot.address } : {}),
    ...(spot.city ? { city: spot.city } : {}),
    ...(spot.state ? { state: spot.state } : {}),
    ...(spot.country ? { country: spot.country } : {}),
    createdBy: spot.createdBy ? spot.createdBy.toHexString() : null,
    // What the spot's stays list shows, counted from the same read of the spot, so never off by a hidden stay.
    stayCount: spot.stays.filter(isShownStay).length,
    ...(rating ?? {}),
    // Metres from the database's $geoNear, to the metre.
    ...(spot.distanceMeters !== undefined ? { distanceKm: Math.round(spot.distanceMeters) / 1000 } : {}),
    createdAt: spot.createdAt.toISOString(),
    updatedAt: spot.updatedAt.toISOString(),
  };
}
