import { Decimal128, Long, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { readBlogPost, readPostStatus } from '../../../worker/riding/blog/reader';
import { readCategory } from '../../../worker/riding/categories/reader';
import { readReminderRow } from '../../../worker/riding/reminders/reader';
import { readSpotList } from '../../../worker/riding/spot-lists/reader';
import { readSpotReview } from '../../../worker/riding/spot-reviews/reader';
import { readSpotTrickLanding } from '../../../worker/riding/spot-trick-history/reader';
import { readSpot } from '../../../worker/riding/spots/reader';
import { readStay } from '../../../worker/riding/stays/reader';
import { readTrickipediaEntry } from '../../../worker/riding/trickipedia/reader';
import { readTrickList } from '../../../worker/riding/tricklists/reader';
import { readTrick } from '../../../worker/riding/tricks/reader';

// The riding readers' rules for what older code stored (migrations-notes/legacy-documents-riding.md).

const id = new ObjectId();
const created = id.getTimestamp();

describe('every riding reader', () => {
  const readers = [
    readTrickList,
    readTrick,
    readTrickipediaEntry,
    readBlogPost,
    readCategory,
    readSpot,
    readSpotList,
    readSpotReview,
    readSpotTrickLanding,
  ];

  it('cannot read a document without a usable _id, nor a value that is no document', () => {
    for (const read of readers) {
      for (const stored of [null, 'text', 12, [], { _id: 12 }, { _id: 'not-hex' }, {}]) {
        expect(read(stored)).toBeUndefined();
      }
    }
  });

  it('reads a hex-string _id as its ObjectId, and dates from the id when none is stored', () => {
    const list = readTrickList({ _id: id.toHexString().toUpperCase() })!;
    expect(list._id.equals(id)).toBe(true);
    expect(list.createdAt).toEqual(created);
    expect(list.updatedAt).toEqual(created);
  });
});

describe('trick lists and tricks', () => {
  it('reads an unknown cadence as weekly, an unknown sport as skateboarding, text names and dates', () => {
    expect(
      readTrickList({ _id: id, name: 5, sport: 'BMX', reminderCadence: 'monthly', lastOpenedAt: 'no', createdAt: 0 }),
    ).toMatchObject({ name: '5', sport: 'bmx', reminderCadence: 'weekly', lastOpenedAt: null });
    expect(readTrickList({ _id: id, sport: 'surfing' })!.sport).toBe('skateboarding');
  });

  it('reads an unknown status from completed, and counts from text, Int64 and Decimal128', () => {
    const trick = (fields: object) => readTrick({ _id: id, listId: id.toHexString(), ...fields })!;
    expect(trick({ status: 'done', completed: 'true', attempts: '7' })).toMatchObject({
      status: 'landed',
      completed: true,
      attempts: 7,
    });
    expect(trick({ attempts: Long.fromNumber(3) })).toMatchObject({ status: 'todo', completed: false, attempts: 3 });
    expect(trick({ status: 'landed', attempts: Decimal128.fromString('2.9') })).toMatchObject({
      completed: true,
      attempts: 2,
    });
    expect(readTrick({ _id: id, listId: 'gone' })).toBeUndefined();
  });
});

describe('the encyclopedia', () => {
  it('reads entries with the slug from the id, the name from the slug, one alias as a list', () => {
    expect(readTrickipediaEntry({ _id: id, aliases: 'ollie', difficulty: '4.7' })).toMatchObject({
      slug: id.toHexString(),
      name: id.toHexString(),
      aliases: ['ollie'],
      difficulty: 4,
      description: '',
    });
  });

  it('reads no status as published, and any status it does not know as draft', () => {
    expect([undefined, null, 'published', 'draft', 'archived', 1].map(readPostStatus)).toEqual([
      'published',
      'published',
      'published',
      'draft',
      'draft',
      'draft',
    ]);
    const post = readBlogPost({ _id: id, tags: 'news', authorId: id.toHexString(), publishedAt: 'junk' })!;
    expect(post).toMatchObject({ status: 'published', tags: ['news'], body: '', title: '' });
    expect(post.authorId?.equals(id)).toBe(true);
    expect(post.publishedAt).toBeUndefined();
  });

  it('reads a category count from text, and leaves out a sport outside the taxonomy', () => {
    const category = readCategory({ _id: id, slug: 'air', entryCount: ' 3 ', sport: 'skiing' })!;
    expect(category).toMatchObject({ slug: 'air', name: 'air', entryCount: 3 });
    expect(category.sport).toBeUndefined();
  });
});

describe('spots and stays', () => {
  it('reads a usable point only, one sport as a list, and leaves out stays it cannot read', () => {
    const spot = readSpot({
      _id: id,
      sports: 'bmx',
      location: { type: 'Point', coordinates: ['13.4', 52.5] },
      stays: [{ _id: id, name: 'Inn', type: 'motel', rating: '4.5', tags: 'cheap' }, 'Bare name', { name: 'No id' }],
    })!;
    expect(spot).toMatchObject({ sports: ['bmx'], location: { lat: 52.5, lng: 13.4 } });
    expect(spot.stays).toEqual([
      expect.objectContaining({ _id: id.toHexString(), type: 'other', rating: 4.5, tags: ['cheap'], nameKey: 'inn' }),
    ]);
    expect(readSpot({ _id: id, location: { coordinates: [200, 10] } })!.location).toBeNull();
    expect(readSpot({ _id: id, location: 'Berlin' })!.location).toBeNull();
  });

  it('leaves tags out of a stay stored without them', () => {
    expect(readStay({ _id: id.toHexString(), name: 'Inn' })).not.toHaveProperty('tags');
  });
});

describe('lists, reviews, landings and reminder rows', () => {
  it('reads spot ids stored as an object of text ids, leaving out what is no id', () => {
    expect(readSpotList({ _id: id, spotIds: { 0: id.toHexString(), 1: 'junk' } })!.spotIds).toEqual([id]);
  });

  it('reads a review without a usable author or rating, and a landing without a landing time', () => {
    expect(readSpotReview({ _id: id, spotId: id, userId: 'someone', rating: 'five' })).toMatchObject({
      userId: undefined,
      rating: 0,
    });
    const landing = readSpotTrickLanding({ _id: id, spotId: id.toHexString(), createdAt: '2020-01-01' })!;
    expect(landing.landedAt).toEqual(new Date('2020-01-01'));
    expect(landing.trickName).toBe('');
  });

  it('cannot read a reminder row without its list, slot or key', () => {
    const row = { _id: id, userId: id, listId: id, scheduledFor: new Date(), idempotencyKey: 'k' };
    expect(readReminderRow(row)).toMatchObject({ trickId: null });
    for (const broken of [{ listId: 'x' }, { scheduledFor: 'never' }, { idempotencyKey: '' }]) {
      expect(readReminderRow({ ...row, ...broken })).toBeUndefined();
    }
  });
});
