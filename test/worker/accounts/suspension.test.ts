import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { register, registerAdmin, type TestAccount } from '../../support/accounts';
import { liveExpoToken, pushTestbed } from '../../support/expo-push-stand-in';
import { apiDocument } from '../../support/worker-api';

// An admin suspends a rider for a time or until lifted: every request of the rider but reading their own account and
// signing out is refused with 403 `Account suspended.`, until it ends or is lifted (docs/moderation.md, Suspension).

const push = pushTestbed('suspension');
const { api } = push;
const DAY = 86_400_000;

const asRider = (rider: TestAccount) => ({ 'x-auth-token': rider.token });

async function suspend(admin: TestAccount, riderId: string, body: unknown) {
  const res = await api.fetch(`/api/admin/users/${riderId}/suspension`, {
    method: 'PUT',
    headers: asRider(admin),
    json: body,
  });
  return { status: res.status, body: await res.json<any>() };
}

async function lift(admin: TestAccount, riderId: string, body: unknown = { reason: 'appeal accepted' }) {
  const res = await api.fetch(`/api/admin/users/${riderId}/suspension`, {
    method: 'DELETE',
    headers: asRider(admin),
    json: body,
  });
  return { status: res.status, body: await res.json<any>() };
}

/** A request only an unsuspended rider may make: publishing a post. */
const post = (rider: TestAccount) =>
  api.fetch('/api/feed', { method: 'POST', headers: asRider(rider), json: { text: 'back on the board', media: [] } });

const me = async (rider: TestAccount) => {
  const res = await api.fetch('/api/users/me', { headers: asRider(rider) });
  return { status: res.status, body: await res.json<any>() };
};

/** Stores a suspension directly, as the route would have, with any end. */
const storeSuspension = (riderId: string, until: Date | null, by = new ObjectId()) =>
  api.db((db) =>
    db
      .collection('users')
      .updateOne(
        { _id: new ObjectId(riderId) },
        { $set: { suspension: { until, reason: 'spam', by, at: new Date(Date.now() - DAY) } } },
      ),
  );

describe('a suspended rider', () => {
  it('is refused with 403 Account suspended., its end and reason on posting, messaging, editing and reading with a token', async () => {
    const admin = await registerAdmin(api);
    const rider = await register(api);
    const other = await register(api);
    const until = new Date(Date.now() + 3 * DAY).toISOString();
    // A conversation from before: a message into it goes through the access check that reads ahead.
    const started = await api.fetch('/api/conversations', {
      method: 'POST',
      headers: asRider(rider),
      json: { participantIds: [other._id] },
    });
    const conversationId = (await started.json<{ _id: string }>())._id;
    const set = await suspend(admin, rider._id, { reason: 'Harassing other riders in comments', until });
    expect(set).toEqual({
      status: 200,
      body: {
        userId: rider._id,
        until,
        reason: 'Harassing other riders in comments',
        by: admin._id,
        at: expect.any(String),
      },
    });

    const refused = { error: 'Account suspended.', until, reason: 'Harassing other riders in comments' };
    const attempts = [
      post(rider),
      api.fetch('/api/conversations', {
        method: 'POST',
        headers: asRider(rider),
        json: { participantIds: [other._id] },
      }),
      api.fetch(`/api/conversations/${conversationId}/messages`, {
        method: 'POST',
        headers: asRider(rider),
        json: { text: 'still here' },
      }),
      api.fetch('/api/users/me', { method: 'PATCH', headers: asRider(rider), json: { name: 'Renamed' } }),
      api.fetch(`/api/users/${rider._id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${rider.token}` },
        json: { name: 'Renamed' },
      }),
      // A public read sent with the rider's token: the token is the rider's, so it is refused too.
      api.fetch('/api/feed', { headers: asRider(rider) }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual(refused);
    }
    // Others are untouched.
    expect((await post(other)).status).toBe(201);
  });

  it('still reads their own account, which shows the suspension, and can sign out', async () => {
    const admin = await registerAdmin(api);
    const rider = await register(api);
    const until = new Date(Date.now() + DAY).toISOString();
    await suspend(admin, rider._id, { reason: 'Spam links', until });

    const account = await me(rider);
    expect(account.status).toBe(200);
    expect(account.body.suspension).toEqual({ until, reason: 'Spam links', at: expect.any(String) });
    expect(JSON.stringify(account.body)).not.toContain(admin._id);

    const out = await api.fetch('/api/auth/logout', { method: 'POST', headers: asRider(rider), json: { all: true } });
    expect(out.status).toBe(200);
  });

  it('is suspended until lifted when until is null or left out', async () => {
    const admin = await registerAdmin(api);
    const first = await register(api);
    const second = await register(api);
    expect((await suspend(admin, first._id, { reason: 'Threats', until: null })).body.until).toBeNull();
    expect((await suspend(admin, second._id, { reason: 'Threats' })).body.until).toBeNull();
    for (const rider of [first, second]) {
      const res = await post(rider);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: 'Account suspended.', until: null, reason: 'Threats' });
      expect((await me(rider)).body.suspension).toMatchObject({ until: null, reason: 'Threats' });
    }
  });

  it('works again once the end passes, with no write; an end still ahead refuses', async () => {
    const ended = await register(api);
    const running = await register(api);
    await storeSuspension(ended._id, new Date(Date.now() - 1000));
    await storeSuspension(running._id, new Date(Date.now() + 60_000));

    expect((await post(ended)).status).toBe(201);
    expect((await me(ended)).body.suspension).toBeUndefined();
    expect((await post(running)).status).toBe(403);
  });

  it('works again at once when an admin lifts it, and gets a push each time, whatever their push switches', async () => {
    const admin = await registerAdmin(api);
    const rider = await register(api);
    const { token, doc } = liveExpoToken(new ObjectId(rider._id));
    await api.db((db) => db.collection('pushTokens').insertOne(doc));
    // Every switch off and quiet all day: a notice about the rider's own account goes anyway.
    const off = { push: false, inApp: false, email: false };
    const notificationPreferences = {
      messages: off,
      reminders: off,
      events: off,
      quietHours: { start: '00:00', end: '23:59', timezone: 'UTC' },
    };
    await api.db((db) =>
      db.collection('users').updateOne({ _id: new ObjectId(rider._id) }, { $set: { notificationPreferences } }),
    );
    await push.script({});

    await suspend(admin, rider._id, { reason: 'Spam links', until: null });
    expect((await post(rider)).status).toBe(403);
    const lifted = await lift(admin, rider._id);
    expect(lifted).toEqual({ status: 200, body: { userId: rider._id, lifted: true } });
    expect((await post(rider)).status).toBe(201);
    expect((await me(rider)).body.suspension).toBeUndefined();

    const sent = await push.sent();
    expect(sent).toEqual([
      expect.objectContaining({
        to: token,
        title: 'Account suspended',
        body: 'Suspended until further notice: Spam links',
        data: expect.objectContaining({ category: 'account', kind: 'suspension', url: '/account' }),
      }),
      expect.objectContaining({
        to: token,
        title: 'Suspension lifted',
        data: expect.objectContaining({ category: 'account', kind: 'suspension-lifted' }),
      }),
    ]);
    // Nothing left to lift.
    expect((await lift(admin, rider._id)).status).toBe(409);
  });

  it('is logged in the moderator action log, suspension and lift, with who, why and the end', async () => {
    const admin = await registerAdmin(api);
    const rider = await register(api);
    const until = new Date(Date.now() + 7 * DAY).toISOString();
    await suspend(admin, rider._id, { reason: 'Hate speech', until });
    await lift(admin, rider._id, { reason: 'Appeal accepted' });

    const res = await api.fetch(`/api/admin/moderation/actions?subjectId=${rider._id}`, { headers: asRider(admin) });
    const { items } = await res.json<{ items: Record<string, unknown>[] }>();
    const target = { type: 'user', id: rider._id };
    expect(items).toEqual([
      expect.objectContaining({
        actorId: admin._id,
        action: 'rider.lift',
        target,
        subjectId: rider._id,
        reason: 'Appeal accepted',
        details: { until, suspendedFor: 'Hate speech' },
        createdAt: expect.any(String),
      }),
      expect.objectContaining({
        actorId: admin._id,
        action: 'rider.suspend',
        target,
        subjectId: rider._id,
        reason: 'Hate speech',
        details: { until },
      }),
    ]);
  });

  it('keeps its suspension when the admin who set it deletes their account, without naming them', async () => {
    const admin = await registerAdmin(api);
    const rider = await register(api);
    await suspend(admin, rider._id, { reason: 'Spam links' });
    const res = await api.fetch(`/api/users/${admin._id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.status).toBe(200);
    const stored = await api.db((db) => db.collection('users').findOne({ _id: new ObjectId(rider._id) }));
    expect(stored?.suspension).toEqual({ until: null, reason: 'Spam links', at: expect.any(Date) });
    expect((await post(rider)).status).toBe(403);
  });
});

describe('PUT and DELETE /api/admin/users/{id}/suspension', () => {
  it('refuses a rider who is not an admin', async () => {
    const rider = await register(api);
    const other = await register(api);
    const res = await api.fetch(`/api/admin/users/${other._id}/suspension`, {
      method: 'PUT',
      headers: asRider(rider),
      json: { reason: 'no' },
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('Access denied. Admin only.');
    expect((await post(other)).status).toBe(201);
  });

  it('answers 404 for an unknown rider', async () => {
    const admin = await registerAdmin(api);
    const nobody = new ObjectId().toHexString();
    expect(await suspend(admin, nobody, { reason: 'Spam' })).toEqual({
      status: 404,
      body: { error: 'Account not found.' },
    });
    expect((await lift(admin, nobody)).status).toBe(404);
  });

  it('refuses to suspend an admin or oneself', async () => {
    const admin = await registerAdmin(api);
    const otherAdmin = await registerAdmin(api);
    expect((await suspend(admin, otherAdmin._id, { reason: 'Spam' })).status).toBe(409);
    const self = await suspend(admin, admin._id, { reason: 'Spam' });
    expect(self).toEqual({ status: 409, body: { error: 'You cannot suspend your own account.' } });
    expect((await me(otherAdmin)).body.suspension).toBeUndefined();
  });

  it('answers 400 naming the field for a bad body', async () => {
    const admin = await registerAdmin(api);
    const rider = await register(api);
    const cases: [unknown, string][] = [
      [{}, 'reason'],
      [{ reason: '   ' }, 'reason'],
      [{ reason: 'x'.repeat(501) }, 'reason'],
      [{ reason: 'Spam', until: 'next tuesday' }, 'until'],
      [{ reason: 'Spam', until: new Date(Date.now() - DAY).toISOString() }, 'until'],
      [{ reason: 'Spam', days: 3 }, 'days'],
    ];
    for (const [body, field] of cases) {
      const res = await suspend(admin, rider._id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      // An unknown field is named in the message (zod's `Unrecognized key: "days"`), the others as the field.
      const named = res.body.details.some(
        (detail: { field: string; message: string }) => detail.field === field || detail.message.includes(`"${field}"`),
      );
      expect(named, JSON.stringify(res.body)).toBe(true);
    }
    const noReason = await lift(admin, rider._id, {});
    expect(noReason.status).toBe(400);
    expect(noReason.body.details[0].field).toBe('reason');
    expect((await post(rider)).status).toBe(201);
  });
});

/** The schemes that carry a rider's session token. */
const RIDER_TOKENS = ['x-auth-token', 'authorization-bearer'];
/**
 * The app's own telemetry reads a token only to say whose it is, and never refuses one (worker/platform/tokens/service.ts
 * tokenCaller): a suspended rider's app still reports, and still learns the version policy.
 */
const TELEMETRY = ['GET /api/experiments/assignments', 'POST /api/client-heartbeat', 'POST /api/analytics/events'];

describe('the API description', () => {
  it('documents the suspended 403 on every operation that reads a token, but for reading your account and signing out', async () => {
    const doc = (await apiDocument(api.env)) as any;
    const undocumented: string[] = [];
    for (const [path, operations] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(operations)) {
        const readsToken = (op.security ?? []).some((scheme: object) =>
          Object.keys(scheme).some((name) => RIDER_TOKENS.includes(name)),
        );
        if (!readsToken || TELEMETRY.includes(`${method.toUpperCase()} ${path}`)) continue;
        const forbidden = JSON.stringify(op.responses?.['403']?.content?.['application/json'] ?? {});
        if (!forbidden.includes('AccountSuspended')) undocumented.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(undocumented).toEqual([]);
  });
});
