import type { EventDoc } from '../documents';
import { coordinatesOf } from './geo';
import { normalizeText } from './identity';
import { storedDate } from './views';

// "Similar" ranks candidates that share a sport or kind (worker/events/catalog/service.ts) by how far
// apart they are in time and place, one figure in days: a rider weighs a day's wait about like
// a 100 km trip.
const KM_PER_DAY = 100;
const DAY_MS = 24 * 60 * 60 * 1000;
const EARTH_RADIUS_KM = 6371;
/** Without coordinates on both sides, the place names stand in for a distance. */
const SAME_CITY_KM = 0;
const SAME_REGION_KM = 300;
const SAME_COUNTRY_KM = 1000;
const ELSEWHERE_KM = 3000;

type Place = { lat: number | null; lng: number | null; city: string; region: string; country: string };

function placeOf(event: EventDoc): Place {
  const venue = (typeof event.venue === 'object' && event.venue) || {};
  const name = (value: unknown) => normalizeText(typeof value === 'string' ? value : '');
  const at = coordinatesOf(venue);
  return {
    lat: at?.lat ?? null,
    lng: at?.lng ?? null,
    city: name(venue.city),
    region: name(venue.region),
    country: name(venue.country),
  };
}

function haversineKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** How far apart two events are held, in km; an online event is as near as a same-city one. */
export function placeDistanceKm(a: EventDoc, b: EventDoc): number {
  if (a.isOnline === true && b.isOnline === true) return SAME_CITY_KM;
  const [pa, pb] = [placeOf(a), placeOf(b)];
  if (pa.lat !== null && pa.lng !== null && pb.lat !== null && pb.lng !== null) {
    return haversineKm({ lat: pa.lat, lng: pa.lng }, { lat: pb.lat, lng: pb.lng });
  }
  const same = (x: string, y: string) => x !== '' && x === y;
  // A blank field does not contradict (U.S. venues often carry no country); a differing one does.
  const agree = (x: string, y: string) => x === '' || y === '' || x === y;
  const sameCountry = agree(pa.country, pb.country);
  if (same(pa.city, pb.city) && agree(pa.region, pb.region) && sameCountry) return SAME_CITY_KM;
  if (same(pa.region, pb.region) && sameCountry) return SAME_REGION_KM;
  if (same(pa.country, pb.country)) return SAME_COUNTRY_KM;
  return ELSEWHERE_KM;
}

/** The candidates most similar to `event` first, `limit` of them; `_id` breaks ties so the order is stable. */
export function rankSimilar(event: EventDoc, candidates: EventDoc[], at: Date, limit: number): EventDoc[] {
  const score = (candidate: EventDoc) => {
    const start = storedDate(candidate.startAt);
    const days = start ? Math.abs(start.getTime() - at.getTime()) / DAY_MS : Number.POSITIVE_INFINITY;
    return days + placeDistanceKm(event, candidate) / KM_PER_DAY;
  };
  return candidates
    .map((candidate) => ({ candidate, score: score(candidate) }))
    .sort((a, b) => a.score - b.score || String(a.candidate._id).localeCompare(String(b.candidate._id)))
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}
