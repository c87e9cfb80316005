import { type Db, ObjectId } from 'mongodb';
import { foldKey } from '../worker/riding/stays/normalise';

/** The demo accounts the riding content belongs to. */
export interface DemoAccounts {
  adminId: ObjectId;
  riderId: ObjectId;
  premiumId: ObjectId;
}

type Place = { city: string; state?: string; country: string };

/** Spots in two cities, each with stays in the three confidence bands (interface spec, Stay). */
const CITIES: { place: Place; spots: { name: string; sports: string[]; lngLat: [number, number] }[] }[] = [
  {
    place: { city: 'Los Angeles', state: 'CA', country: 'US' },
    spots: [
      { name: 'Venice Beach Skatepark', sports: ['skateboarding'], lngLat: [-118.4729, 33.985] },
      { name: 'Stoner Skate Plaza', sports: ['skateboarding', 'bmx'], lngLat: [-118.4513, 34.0289] },
    ],
  },
  {
    place: { city: 'Berlin', country: 'DE' },
    spots: [
      { name: 'Mellowpark', sports: ['skateboarding', 'bmx'], lngLat: [13.5408, 52.4582] },
      { name: 'Skatehalle Berlin', sports: ['skateboarding'], lngLat: [13.4566, 52.5069] },
    ],
  },
];

const STAYS = [
  { name: 'Riders Hostel', type: 'hostel', priceLevel: 1, rating: 4.2, distanceKm: 0.8, sourceConfidence: 0.93 },
  { name: 'Parkside Hotel', type: 'hotel', priceLevel: 3, rating: 4.5, distanceKm: 1.6, sourceConfidence: 0.78 },
  { name: 'Ramp View Apartment', type: 'airbnb', priceLevel: 2, rating: 4.8, distanceKm: 2.4, sourceConfidence: 0.55 },
  // Below 0.50: kept for the admin review queue, hidden from the default ranking.
  { name: 'Unchecked Campground', type: 'campground', priceLevel: 1, distanceKm: 12, sourceConfidence: 0.3 },
];

/**
 * Riding content for a fresh local database, so every content route answers something:
 * spots with stays near two cities, reviews and landings, the rider's trick lists and a
 * spot list, and a premium account. Shapes follow each domain's documents.ts (worker/riding/, worker/accounts/).
 */
export async function seedRidingDemo(db: Db, { adminId, riderId, premiumId }: DemoAccounts): Promise<void> {
  const now = new Date();
  const stamp = { createdAt: now, updatedAt: now };
  const spots = CITIES.flatMap(({ place, spots: list }) =>
    list.map((spot) => ({
      _id: new ObjectId(),
      name: spot.name,
      sports: spot.sports,
      ...place,
      location: { type: 'Point' as const, coordinates: spot.lngLat },
      createdBy: adminId,
      stays: STAYS.map((stay) => ({
        _id: new ObjectId().toHexString(),
        ...stay,
        nameKey: foldKey(stay.name),
        ...place,
        bookingUrl: `https://stays.example.com/${foldKey(`${spot.name} ${stay.name}`).replace(/\W+/g, '-')}`,
        source: 'demo',
        createdBy: adminId,
        ...stamp,
      })),
      ...stamp,
    })),
  );
  await db.collection('spots').insertMany(spots);

  const reviews = spots.flatMap((spot, i) => [
    { spotId: spot._id, userId: riderId, rating: 4 + (i % 2), text: 'Smooth ground, friendly locals.', ...stamp },
    { spotId: spot._id, userId: premiumId, rating: 3 + (i % 3), ...stamp },
  ]);
  await db.collection('spot_reviews').insertMany(reviews);
  await db.collection('spot_trick_history').insertMany(
    spots.slice(0, 3).map((spot, i) => ({
      spotId: spot._id,
      userId: riderId,
      trickName: ['Kickflip', 'Ollie', '50-50 Grind'][i]!,
      landedAt: new Date(now.getTime() - (i + 1) * 86_400_000),
      ...stamp,
    })),
  );

  const street = {
    _id: new ObjectId(),
    userId: riderId,
    name: 'Street basics',
    sport: 'skateboarding',
    reminderCadence: 'weekly',
    ...stamp,
  };
  const park = {
    _id: new ObjectId(),
    userId: riderId,
    name: 'Park goals',
    sport: 'bmx',
    reminderCadence: 'daily',
    ...stamp,
  };
  await db.collection('tricklists').insertMany([street, park]);
  const trick = (listId: ObjectId, name: string, status: 'todo' | 'learning' | 'landed', attempts: number) => ({
    userId: riderId,
    listId,
    name,
    status,
    attempts,
    completed: status === 'landed',
    landedAt: status === 'landed' ? now : null,
    ...stamp,
  });
  await db
    .collection('tricks')
    .insertMany([
      trick(street._id, 'Ollie', 'landed', 40),
      trick(street._id, 'Kickflip', 'learning', 12),
      trick(street._id, 'Heelflip', 'todo', 0),
      trick(park._id, 'Bunny Hop', 'learning', 5),
    ]);

  await db
    .collection('spotlists')
    .insertOne({ userId: riderId, name: 'Trip to Berlin', spotIds: spots.slice(2).map((s) => s._id), ...stamp });
  // The spot-list allowance counter (worker/riding/spot-lists/service.ts) starts from the lists seeded here.
  await db.collection('users').updateOne({ _id: riderId }, { $set: { spotListCount: 1 } });
  await db.collection('users').updateOne(
    { _id: premiumId },
    {
      $set: {
        subscription: {
          plan: 'premium',
          status: 'active',
          interval: 'month',
          renewsAt: new Date(now.getTime() + 30 * 86_400_000),
        },
      },
    },
  );
}
