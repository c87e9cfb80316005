import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { readStoredPreferences } from '../../../worker/notifications/preferences/read-preferences';
import { fitBody, fitTitle } from '../../../worker/notifications/push/text';
import { readPushToken } from '../../../worker/notifications/push-tokens/read-push-token';

describe('push texts built from stored values', () => {
  it('read a number as its digits and anything not text as empty, never throwing', () => {
    expect(fitTitle(42)).toBe('42');
    expect(fitTitle(null)).toBe('');
    expect(fitBody({ text: 'x' })).toBe('');
    expect(fitTitle('  Kickflip   time  ')).toBe('Kickflip time');
  });
});

describe('readPushToken', () => {
  it('infers the transport of a token stored without one, and reads deadAt "" as alive', () => {
    const userId = new ObjectId();
    const expo = readPushToken({
      _id: new ObjectId(),
      userId: userId.toHexString(),
      token: 'ExpoPushToken[abc]',
      deadAt: '',
    });
    expect(expo).toMatchObject({ transport: 'gateway', platform: 'android', deadAt: null, deadReason: null });
    expect(expo!.userId.equals(userId)).toBe(true);
    const web = readPushToken({
      _id: new ObjectId(),
      userId,
      token: 'https://fcm.googleapis.com/fcm/send/x',
      endpoint: 'https://fcm.googleapis.com/fcm/send/x',
      keys: { p256dh: 'B', auth: 'a' },
    });
    expect(web).toMatchObject({ transport: 'webpush', platform: 'web' });
    expect(readPushToken({ _id: new ObjectId(), userId, token: 'f00dbabe1234567890', platform: 'ios' })).toMatchObject({
      transport: 'ios_native',
    });
  });

  it('reads no token without an owner or an address', () => {
    expect(readPushToken({ _id: new ObjectId(), token: 'ExpoPushToken[abc]' })).toBeUndefined();
    expect(readPushToken({ _id: new ObjectId(), userId: new ObjectId(), token: '' })).toBeUndefined();
  });
});

describe('readStoredPreferences', () => {
  it('keeps what reads and leaves out the rest, so the defaults fill it', () => {
    expect(
      readStoredPreferences({
        messages: { push: 'false', email: 1, inApp: 'sometimes' },
        reminders: 'off',
        quietHours: { start: '22:00', end: '7:00', timezone: 'Europe/Paris' },
        osPermission: { ios: 'granted', web: 'perhaps' },
        softAsk: { android: { shownAt: 1_700_000_000_000 } },
      }),
    ).toEqual({
      messages: { push: false, email: true },
      quietHours: { start: '22:00', timezone: 'Europe/Paris' },
      osPermission: { ios: 'granted' },
      softAsk: { android: { shownAt: new Date(1_700_000_000_000) } },
    });
    expect(readStoredPreferences('off')).toBeUndefined();
  });
});
