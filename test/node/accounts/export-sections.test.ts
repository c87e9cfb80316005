import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { extensionOf } from '../../../worker/accounts/exports/media-files';
import { exportReadme } from '../../../worker/accounts/exports/readme';
import { exportSections } from '../../../worker/accounts/exports/sections';
import { PERSONAL_DATA } from '../../../worker/data';
import type { CollectionName } from '../../../worker/platform/db/collections';
import type { Cleanup } from '../../../worker/platform/db/personal-data';

const rider = new ObjectId();

describe('exportSections', () => {
  it('has the account first, then one file per personal-data collection, in the rules’ order', () => {
    // Accounts are the account file, the rider's own only (another's that names the rider is not theirs to take).
    const collections = [...new Set(PERSONAL_DATA.map((cleanup) => cleanup.collection))].filter((c) => c !== 'users');
    expect(exportSections(PERSONAL_DATA).map((section) => section.file)).toEqual([
      'account.json',
      ...collections.map((collection) => `${collection}.json`),
    ]);
  });

  it('exports a collection added to the personal-data rules with no other code', () => {
    const added = 'skate_diaries' as CollectionName;
    const rules: Cleanup[] = [...PERSONAL_DATA, { collection: added, remove: (userId) => ({ authorId: userId }) }];
    const section = exportSections(rules).find((candidate) => candidate.collection === added);
    expect(section).toMatchObject({ file: 'skate_diaries.json', others: 'another rider' });
    expect(section?.select(rider)).toEqual({ authorId: rider });
  });

  it('selects what any of a collection’s cleanups selects, detached documents included', () => {
    const follows = exportSections(PERSONAL_DATA).find((section) => section.collection === 'follows');
    expect(follows?.select(rider)).toEqual({
      $or: [
        { followerId: { $in: [rider, rider.toHexString()] } },
        { followedId: { $in: [rider, rider.toHexString()] } },
      ],
    });
    const spots = exportSections(PERSONAL_DATA).find((section) => section.collection === 'spots');
    expect(spots?.select(rider)).toEqual({
      $or: [
        { createdBy: { $in: [rider, rider.toHexString()] } },
        { 'stays.createdBy': { $in: [rider, rider.toHexString()] } },
      ],
    });
  });

  it('names other riders only in conversations and their messages', () => {
    const named = exportSections(PERSONAL_DATA).filter((section) => section.others === 'display name');
    expect(named.map((section) => section.collection).sort()).toEqual(['conversations', 'dm_messages']);
  });
});

describe('exportReadme', () => {
  it('lists every file with its count, escaping what it shows', () => {
    const sections = exportSections([{ collection: '<b>odd</b>' as CollectionName, remove: () => ({}) }]);
    const html = exportReadme(
      sections.map((section, at) => ({ section, documents: at + 1 })),
      { files: 2, missing: 1 },
      new Date('2026-12-07T00:00:00Z'),
    );
    expect(html).toContain('<code>account.json</code>');
    expect(html).toContain('<code>&#60;b&#62;odd&#60;/b&#62;.json</code>');
    expect(html).not.toContain('<b>odd');
    expect(html).toContain('1 could not be found');
  });
});

describe('extensionOf', () => {
  it('names a file by its stored type, and leaves an unreadable one without an extension', () => {
    expect(
      ['image/jpeg', 'video/quicktime', 'image/heic', 'video/mp4', 'junk', undefined, 'x/../..'].map(extensionOf),
    ).toEqual(['.jpg', '.mov', '.heic', '.mp4', '', '', '']);
  });
});
