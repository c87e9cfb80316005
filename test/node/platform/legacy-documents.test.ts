import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { VARIANTS } from '../../support/legacy/variants';
import { applyVariant, LEGACY_SPECS, legacyDocuments } from '../../support/legacy-documents';

const riders = { owner: new ObjectId('64b000000000000000000001'), neighbour: new ObjectId('64b000000000000000000002') };
const now = new Date('2026-06-01T12:00:00Z');

// The Live collections a legacy database holds (the interface spec's stored shapes), by their stored names.
const LIVE_COLLECTIONS = [
  'users',
  'tricklists',
  'tricks',
  'trickipedia',
  'spotlists',
  'spots',
  'spot_reviews',
  'spot_trick_history',
  'feed_posts',
  'reactions',
  'feed_comments',
  'saved_posts',
  'conversations',
  'dm_messages',
  'bot_chats',
  'companion_profiles',
  'blog',
  'categories',
  'events',
  'event_saves',
  'pushTokens',
];

describe('legacy documents', () => {
  it('covers every Live collection', () => {
    const collections = LEGACY_SPECS.map((spec) => spec.collection);
    expect(collections).toEqual(expect.arrayContaining(LIVE_COLLECTIONS));
  });

  it('is the same for the same seed, riders and time, and another seed gives other ids', () => {
    const a = legacyDocuments(riders, { seed: 's', now });
    expect(legacyDocuments(riders, { seed: 's', now }).documents).toEqual(a.documents);
    expect(legacyDocuments(riders, { seed: 't', now }).documents[0]!.doc._id).not.toEqual(a.documents[0]!.doc._id);
  });

  it('gives every document of a collection its own id, and names its field and variant', () => {
    const set = legacyDocuments(riders, { now });
    for (const spec of LEGACY_SPECS) {
      const ids = set.of(spec.collection).map((entry) => String(entry.doc._id));
      expect(new Set(ids).size, spec.collection).toBe(ids.length);
    }
    const entry = set.of('tricks').find((e) => e.label === 'attempts: numeric string')!;
    expect(entry.doc.attempts).toBe('5');
    expect(set.describe('tricks', entry.doc._id)).toBe('tricks attempts: numeric string');
  });

  it('changes one field per variant and leaves the rest as the clean document has them', () => {
    const set = legacyDocuments(riders, { now });
    const clean = set.of('spots')[0]!.doc;
    const missing = set.of('spots').find((e) => e.label === 'stays.0.createdAt: missing')!.doc;
    expect(missing.stays[0]).not.toHaveProperty('createdAt');
    expect(missing.stays[0].name).toMatch(/^Legacy hostel/);
    expect(missing.city).toBe(clean.city);
    const locale = set.of('events').find((e) => e.label === 'startAt: locale string')!.doc;
    expect(typeof locale.startAt).toBe('string');
    expect(new Date(locale.startAt).getTime()).not.toBeNaN();
  });

  it('uses every variant of the table somewhere', () => {
    const labels = new Set(legacyDocuments(riders, { now }).documents.map((entry) => entry.label.split(': ')[1]));
    expect(VARIANTS.map((variant) => variant.name).filter((name) => !labels.has(name))).toEqual([]);
  });

  it('gives most documents to the owner and some to the neighbour', () => {
    const tricklists = legacyDocuments(riders, { now }).of('tricklists');
    const owners = tricklists.map((entry) => entry.rider.toHexString());
    expect(owners[0]).toBe(riders.owner.toHexString());
    expect(owners[1]).toBe(riders.neighbour.toHexString());
    expect(owners.filter((id) => id === riders.neighbour.toHexString()).length).toBeGreaterThan(2);
    expect(owners.filter((id) => id === riders.owner.toHexString()).length).toBeGreaterThan(tricklists.length / 2);
  });

  it('turns a stored document legacy in place', () => {
    const event: Record<string, unknown> = { _id: new ObjectId(), slug: 'bowl-jam', title: 'Bowl Jam' };
    // After the two clean documents and the one with extra fields, the table's first event variant.
    expect(applyVariant('events', event, 3)).toBe('events slug: missing');
    expect(event).toEqual({ _id: event._id, title: 'Bowl Jam' });
    expect(applyVariant('events', event, 2)).toBe('events extra fields');
    expect(event).toHaveProperty('__v');
  });
});
