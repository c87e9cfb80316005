import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { linkSigned, signLink } from '../../../worker/accounts/exports/download-link';
import { exportDay } from '../../../worker/accounts/exports/naming';
import { readExport } from '../../../worker/accounts/exports/read-export';
import { afterFailedBuild } from '../../../worker/accounts/exports/retries';
import { fileAvailability, shownState } from '../../../worker/accounts/exports/state';
import { exportView, FAILURE_TEXT } from '../../../worker/accounts/exports/views';
import { LIMITS } from '../../../worker/platform/limits';

const MINUTE = 60_000;
const now = new Date('2026-05-01T12:00:00.000Z');

describe('retrying a failed build', () => {
  it('waits the base delay after the first attempt and doubles it after each later one', () => {
    const base = LIMITS.dataExports.retryAfterMinutes * MINUTE;
    expect(afterFailedBuild(1, now)).toEqual({ retryAt: new Date(now.getTime() + base) });
    expect(afterFailedBuild(2, now)).toEqual({ retryAt: new Date(now.getTime() + 2 * base) });
  });

  it('gives up once every attempt was made', () => {
    expect(afterFailedBuild(LIMITS.dataExports.attempts, now)).toBe('give-up');
    expect(afterFailedBuild(LIMITS.dataExports.attempts + 1, now)).toBe('give-up');
  });
});

describe('the state a client sees', () => {
  const later = new Date(now.getTime() + MINUTE);
  it('is expired for a ready file past its expiry, before the cleanup deleted it', () => {
    expect(shownState({ state: 'ready', expiresAt: later }, now)).toBe('ready');
    expect(shownState({ state: 'ready', expiresAt: now }, now)).toBe('expired');
    expect(fileAvailability({ state: 'ready', expiresAt: now }, now)).toBe('expired');
  });

  it('has a file only when ready', () => {
    expect(fileAvailability({ state: 'ready', expiresAt: later }, now)).toBe('available');
    expect(fileAvailability({ state: 'queued' }, now)).toBe('not-ready');
    expect(fileAvailability({ state: 'building' }, now)).toBe('not-ready');
    expect(fileAvailability({ state: 'failed' }, now)).toBe('failed');
  });

  it('shows a failure as a sentence for the rider, never the stored code', () => {
    const doc = readExport({
      _id: new ObjectId(),
      riderId: new ObjectId(),
      day: '2026-05-01',
      state: 'failed',
      failure: 'build-interrupted',
    })!;
    expect(exportView(doc, now).failure).toBe(FAILURE_TEXT['build-interrupted']);
    expect(JSON.stringify(exportView(doc, now))).not.toContain('build-interrupted');
  });
});

describe('the UTC day of a request', () => {
  it('turns at midnight UTC', () => {
    expect(exportDay(new Date('2026-03-01T23:59:59.999Z'))).toBe('2026-03-01');
    expect(exportDay(new Date('2026-03-02T00:00:00.000Z'))).toBe('2026-03-02');
  });
});

describe('reading a stored export', () => {
  it('leaves out one with no rider, day or known state', () => {
    const base = { _id: new ObjectId(), riderId: new ObjectId(), day: '2026-05-01', state: 'queued' };
    expect(readExport(base)).toMatchObject({ state: 'queued', attempts: 0, leaseId: null });
    expect(readExport({ ...base, riderId: 'nobody' })).toBeUndefined();
    expect(readExport({ ...base, day: 7 })).toMatchObject({ day: '7' });
    expect(readExport({ ...base, state: 'shipping' })).toBeUndefined();
  });

  it('reads an unknown failure code as none and a missing due date as due', () => {
    const doc = readExport({ _id: new ObjectId(), riderId: new ObjectId(), day: 'd', state: 'failed', failure: 'x' })!;
    expect(doc.failure).toBeUndefined();
    expect(doc.dueAt).toEqual(new Date(0));
  });
});

describe('a download link', () => {
  const facts = { exportId: new ObjectId(), riderId: new ObjectId(), expires: 1_900_000_000 };
  const keys = { current: 'secret-now' };

  it('verifies under the secret that signed it, and under it as the previous secret after a rotation', async () => {
    const signature = await signLink(keys, facts);
    expect(await linkSigned(keys, facts, signature)).toBe(true);
    expect(await linkSigned({ current: 'secret-next', previous: 'secret-now' }, facts, signature)).toBe(true);
    expect(await linkSigned({ current: 'secret-next' }, facts, signature)).toBe(false);
  });

  it('fails for another export, another rider, another expiry, or a malformed signature', async () => {
    const signature = await signLink(keys, facts);
    expect(await linkSigned(keys, { ...facts, exportId: new ObjectId() }, signature)).toBe(false);
    expect(await linkSigned(keys, { ...facts, riderId: new ObjectId() }, signature)).toBe(false);
    expect(await linkSigned(keys, { ...facts, expires: facts.expires + 1 }, signature)).toBe(false);
    expect(await linkSigned(keys, facts, `${signature}=`)).toBe(false);
    expect(await linkSigned(keys, facts, '')).toBe(false);
  });
});
