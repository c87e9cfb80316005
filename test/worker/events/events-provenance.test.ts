import { ObjectId } from 'mongodb';
import { describe, expect, it, vi } from 'vitest';
import { registerAdmin } from '../../support/accounts';
import { call } from '../../support/content';
import { ingestionTestbed } from '../../support/ingestion';

// Provenance: raw records, source health, one event per real event across
// sources with both sourceRefs, conflicts settled by sourceTrust.

describe('event provenance', () => {
  it('the same event listed by both sources is one event with two sourceRefs and the more trusted content', async () => {
    const bed = ingestionTestbed('prov-merge');
    await bed.runCron();
    const mayhem = (await bed.events()).filter((event) => event.title === 'Mini Ramp Mayhem');
    expect(mayhem).toHaveLength(1);
    expect(mayhem[0]!.sourceRefs.map((ref: { sourceId: string }) => ref.sourceId).sort()).toEqual([
      'source-one',
      'source-two',
    ]);
    expect(mayhem[0]).toMatchObject({ source: 'source-two', approvalStatus: 'approved', schemaVersion: 2 });
    expect(mayhem[0]!.organizer.canonicalId).toBeInstanceOf(ObjectId);
  });

  it('a near-identical title at the same day and city joins the stored event instead of adding one', async () => {
    const probe = ingestionTestbed('prov-probe');
    await probe.runCron();
    const jam = (await probe.events()).find((event) => event.title === 'Rock & Roll Bowl Jam')!;
    const bed = ingestionTestbed('prov-near');
    const stored = {
      _id: new ObjectId(),
      title: 'Rock and Roll Bowl Jam 2031',
      slug: 'rock-and-roll-bowl-jam-2031-abcdef',
      dedupeKey: 'rock and roll bowl jam 2031|stored|austin',
      startAt: jam.startAt,
      venue: { name: 'Bowl', city: jam.venue.city, region: 'TX', country: 'US', lat: null, lng: null },
      // An event from the previous service; both connectors' listings of the jam must join it.
      source: 'previous-service',
      sourceId: 'rock-and-roll',
      sourceRefs: [{ sourceId: 'previous-service', externalId: 'rock-and-roll', payloadHash: 'x' }],
    };
    await bed.api.db((db) => db.collection('events').insertOne(stored));
    await bed.runCron();
    const joined = (await bed.events()).filter((event) => /rock (&|and) roll bowl jam/i.test(event.title));
    expect(joined).toHaveLength(1);
    expect(joined[0]!._id).toEqual(stored._id);
    expect(joined[0]!.sourceRefs.map((ref: { sourceId: string }) => ref.sourceId)).toContain('source-two');
  });

  it('keeps each raw upstream record; an unchanged payloadHash skips the write on the next run', async () => {
    const bed = ingestionTestbed('prov-raw');
    await bed.runCron();
    const read = () => bed.api.db((db) => db.collection('eventSourceRecords').find().sort({ _id: 1 }).toArray());
    const first = await read();
    expect(first.length).toBeGreaterThan(40);
    expect(first[0]).toMatchObject({ payloadHash: expect.any(String), payload: expect.anything() });
    await bed.runCron();
    expect(await read()).toEqual(first);
  });

  it('records each source health: last success, then a failure counted as consecutive', async () => {
    const bed = ingestionTestbed('prov-health');
    await bed.runCron();
    const health = () => bed.api.db((db) => db.collection('eventSources').find().sort({ _id: 1 }).toArray());
    expect((await health()).map((s) => [s._id, s.consecutiveFailures, s.lastSuccessAt instanceof Date])).toEqual([
      ['source-one', 0, true],
      ['source-two', 0, true],
    ]);
    await bed.sources({ two: 'down' });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await bed.runCron();
    await bed.runCron();
    const two = (await health()).find((s) => String(s._id) === 'source-two')!;
    expect(two).toMatchObject({ consecutiveFailures: 2, lastError: expect.any(String) });
    expect(two.lastFailureAt).toBeInstanceOf(Date);
    expect(two.lastCounts.fetched).toBe(22);
  });

  it('a listing of an event merged on the desk writes to the survivor, never bringing the merged event back', async () => {
    const bed = ingestionTestbed('prov-merged');
    await bed.runCron();
    const before = await bed.events();
    const mayhem = before.find((event) => event.title === 'Mini Ramp Mayhem')!;
    const survivor = before.find((event) => event.title !== 'Mini Ramp Mayhem' && event.startAt)!;
    const admin = await registerAdmin(bed.api);
    const merged = await call(bed.api, 'POST', `/api/admin/events/${mayhem._id.toHexString()}/merge`, {
      as: admin,
      json: { intoId: survivor._id.toHexString() },
    });
    expect(merged.status).toBe(200);
    // Forget the listings' hashes so the next run writes every listing again.
    await bed.api.db((db) => db.collection('events').updateMany({}, { $set: { contentHash: 'stale' } }));
    await bed.runCron();
    const after = await bed.events();
    expect(after).toHaveLength(before.length);
    const tombstone = after.find((event) => event._id.equals(mayhem._id))!;
    expect(tombstone).toMatchObject({ mergedInto: survivor._id, approvalStatus: 'rejected' });
    const kept = after.find((event) => event._id.equals(survivor._id))!;
    const refs = kept.sourceRefs.map(
      (ref: { sourceId: string; externalId: string }) => `${ref.sourceId}:${ref.externalId}`,
    );
    expect(new Set(refs).size).toBe(refs.length);
    for (const ref of mayhem.sourceRefs) expect(refs).toContain(`${ref.sourceId}:${ref.externalId}`);
  });
});
