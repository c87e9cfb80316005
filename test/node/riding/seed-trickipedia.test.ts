import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { seedDemoData } from '../../../scripts/seed';
import { applyIndexes } from '../../../worker/data';
import { useDevDatabase } from '../../support/dev-database';

const dev = useDevDatabase();
const squeezed = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

describe('the demo trickipedia (scripts/seed.ts)', () => {
  it("holds every trick the README's companion examples ask about, by name or alias", async () => {
    const db = dev.client.db('seed_trickipedia');
    await applyIndexes(db);
    await seedDemoData(db);
    const readme = readFileSync('README.md', 'utf8');
    const asked = [...readme.matchAll(/"(?:what is a|show me a|add) ([a-z0-9 -]+?)(?: to my list)?"/g)].map(
      (m) => m[1]!,
    );
    expect(asked).toEqual(expect.arrayContaining(['heelflip', 'kickflip']));
    const entries = await db.collection('trickipedia').find().toArray();
    const known = new Set(entries.flatMap((entry) => [entry.name, ...entry.aliases].map(squeezed)));
    expect(asked.filter((trick) => !known.has(squeezed(trick)))).toEqual([]);
  });
});
