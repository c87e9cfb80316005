import { randomBytes } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { type Db, ObjectId } from 'mongodb';
import { LIMITS } from '../worker/limits';

export interface SeedCredentials {
  admin: { email: string; password: string };
  rider: { email: string; password: string };
}

const devPassword = () => randomBytes(9).toString('base64url');

/**
 * Demo data for a fresh local database: two accounts, spots with stays, encyclopedia
 * entries, categories and blog posts. Runs only when there are no users yet; returns the
 * accounts' passwords, which exist nowhere else.
 */
export async function seedDemoData(db: Db): Promise<SeedCredentials | undefined> {
  if (await db.collection('users').countDocuments({}, { limit: 1 })) return undefined;
  const now = new Date();
  const stamp = { createdAt: now, updatedAt: now };
  const credentials: SeedCredentials = {
    admin: { email: 'admin@rider.local', password: devPassword() },
    rider: { email: 'rider@rider.local', password: devPassword() },
  };
  const adminId = new ObjectId();
  await db.collection('users').insertMany([
    {
      _id: adminId,
      name: 'Dev Admin',
      email: credentials.admin.email,
      password: await bcrypt.hash(credentials.admin.password, LIMITS.bcryptRounds),
      role: 'admin',
      ...stamp,
    },
    {
      name: 'Dev Rider',
      email: credentials.rider.email,
      password: await bcrypt.hash(credentials.rider.password, LIMITS.bcryptRounds),
      role: null,
      ...stamp,
    },
  ]);

  const stay = (name: string, type: string, extra: Record<string, unknown>) => ({
    _id: new ObjectId().toHexString(),
    name,
    type,
    createdBy: adminId,
    ...extra,
    ...stamp,
  });
  await db.collection('spots').insertMany([
    {
      name: 'Venice Beach Skatepark',
      sports: ['skateboarding'],
      city: 'Los Angeles',
      state: 'CA',
      country: 'US',
      location: { type: 'Point', coordinates: [-118.4729, 33.985] },
      createdBy: adminId,
      ...stamp,
      stays: [
        stay('Venice Beach Hostel', 'hostel', {
          priceLevel: 1,
          distanceKm: 0.4,
          city: 'Los Angeles',
          state: 'CA',
          country: 'US',
          sourceConfidence: 0.92,
          bookingUrl: 'https://example.com/venice-hostel',
        }),
        stay('Hotel Erwin', 'hotel', {
          priceLevel: 3,
          distanceKm: 0.6,
          city: 'Los Angeles',
          state: 'CA',
          country: 'US',
          sourceConfidence: 0.8,
        }),
      ],
    },
    {
      name: 'Mammoth Mountain Unbound Main',
      sports: ['snowboarding'],
      city: 'Mammoth Lakes',
      state: 'CA',
      country: 'US',
      location: { type: 'Point', coordinates: [-119.0326, 37.6308] },
      createdBy: adminId,
      ...stamp,
      stays: [
        stay('Mammoth Mountain Inn', 'lodge', {
          priceLevel: 3,
          distanceKm: 0.2,
          city: 'Mammoth Lakes',
          state: 'CA',
          country: 'US',
          sourceConfidence: 0.95,
        }),
      ],
    },
    {
      name: 'Woodward BMX Park',
      sports: ['bmx'],
      city: 'Woodward',
      state: 'PA',
      country: 'US',
      location: { type: 'Point', coordinates: [-77.3553, 40.8765] },
      ...stamp,
    },
  ]);

  // Shapes as worker/db/documents.ts declares them; each category counts the entries that reference it.
  const categories = [
    { slug: 'flip', name: 'Flip tricks' },
    { slug: 'grind', name: 'Grinds' },
    { slug: 'grab', name: 'Grabs' },
    { slug: 'spin', name: 'Spins' },
    { slug: 'manual', name: 'Manuals' },
  ];
  const entries = [
    {
      name: 'Ollie',
      slug: 'ollie',
      sport: 'skateboarding',
      category: 'flip',
      description: 'Pop the tail, slide the front foot up, level out.',
      difficulty: 1,
      aliases: [],
    },
    {
      name: 'Kickflip',
      slug: 'kickflip',
      sport: 'skateboarding',
      category: 'flip',
      description: 'An ollie with a flick off the heel-side edge of the nose.',
      difficulty: 3,
      aliases: ['Flip', 'Kick flip'],
    },
    {
      name: '50-50 Grind',
      slug: '50-50-grind',
      sport: 'skateboarding',
      category: 'grind',
      description: 'Both trucks on the ledge or rail.',
      difficulty: 2,
      aliases: ['Fifty-fifty'],
    },
    {
      name: 'Method',
      slug: 'method',
      sport: 'snowboarding',
      category: 'grab',
      description: 'Heel-edge grab with the front hand, board tweaked behind.',
      difficulty: 3,
      aliases: ['Method air'],
    },
    {
      name: 'Bunny Hop',
      slug: 'bunny-hop',
      sport: 'bmx',
      category: 'manual',
      description: 'Lift the front, then the back wheel.',
      difficulty: 2,
      aliases: ['Bunnyhop'],
    },
  ];
  await db.collection('categories').insertMany(
    categories.map((category) => ({
      ...category,
      entryCount: entries.filter((entry) => entry.category === category.slug).length,
      ...stamp,
    })),
  );
  await db.collection('trickipedia').insertMany(entries.map((entry) => ({ ...entry, ...stamp })));
  const published = { status: 'published', publishedAt: now, authorId: adminId, ...stamp };
  await db.collection('blog').insertMany([
    {
      title: 'Welcome to the rider app',
      slug: 'welcome-to-the-rider-app',
      body: 'Track tricks, find spots, meet riders.',
      tags: ['news'],
      ...published,
    },
    {
      title: 'Five spots to ride this winter',
      slug: 'five-spots-to-ride-this-winter',
      body: 'From Mammoth to Woodward.',
      excerpt: 'Where to ride when it gets cold.',
      tags: ['spots', 'snowboarding'],
      ...published,
    },
  ]);
  return credentials;
}
