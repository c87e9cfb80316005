import { randomBytes } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { type Db, ObjectId } from 'mongodb';
import { LIMITS } from '../worker/platform/limits';
import { seedRidingDemo } from './seed-riding';

export interface SeedCredentials {
  admin: { email: string; password: string };
  rider: { email: string; password: string };
  /** A rider with an active premium subscription (absent from books written before it existed). */
  premium?: { email: string; password: string };
}

const devPassword = () => randomBytes(9).toString('base64url');

/**
 * Demo data for a fresh local database: an admin, a rider and a premium rider, the riding
 * content of scripts/seed-riding.ts, encyclopedia entries, categories and blog posts. Runs only when there are no users yet; returns the
 * accounts' passwords, which exist nowhere else.
 */
export async function seedDemoData(db: Db): Promise<SeedCredentials | undefined> {
  if (await db.collection('users').countDocuments({}, { limit: 1 })) return undefined;
  const now = new Date();
  const stamp = { createdAt: now, updatedAt: now };
  const credentials: SeedCredentials = {
    admin: { email: 'admin@rider.local', password: devPassword() },
    rider: { email: 'rider@rider.local', password: devPassword() },
    premium: { email: 'premium@rider.local', password: devPassword() },
  };
  const [adminId, riderId, premiumId] = [new ObjectId(), new ObjectId(), new ObjectId()];
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
      _id: riderId,
      name: 'Dev Rider',
      email: credentials.rider.email,
      password: await bcrypt.hash(credentials.rider.password, LIMITS.bcryptRounds),
      role: null,
      ...stamp,
    },
    {
      _id: premiumId,
      name: 'Dev Premium Rider',
      email: credentials.premium!.email,
      password: await bcrypt.hash(credentials.premium!.password, LIMITS.bcryptRounds),
      role: null,
      ...stamp,
    },
  ]);

  await seedRidingDemo(db, { adminId, riderId, premiumId });

  // Shapes as worker/riding/documents.ts declares them; each category counts the entries that reference it.
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
      name: 'Heelflip',
      slug: 'heelflip',
      sport: 'skateboarding',
      category: 'flip',
      description:
        'An ollie with the front heel kicking off the toe-side edge of the nose: the board spins the other way from a kickflip.',
      difficulty: 3,
      aliases: ['Heel flip'],
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
