import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../worker/limits';
import { withDefaults } from '../../worker/notification-preferences/defaults';
import { shouldAskOn } from '../../worker/notification-preferences/soft-ask';
import type { Notification } from '../../worker/push/notification';
import {
  classifyWebAnswer,
  encodeWebPayload,
  halveBody,
  MAX_PLAINTEXT_BYTES,
  retryDelayMs,
  webPushHeaders,
  webPushPayload,
} from '../../worker/push/web-payload';

const message: Notification = {
  title: 'Alice',
  body: 'x'.repeat(80),
  threadId: 'a'.repeat(24),
  badge: 3,
  data: { url: `/messages/${'a'.repeat(24)}`, category: 'messages', conversationId: 'a'.repeat(24) },
};
const decode = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes));

describe('web push payload', () => {
  it('is {title, body, badge, data: {url, category, threadId, …}}', () => {
    expect(webPushPayload(message)).toEqual({
      title: 'Alice',
      body: message.body,
      badge: 3,
      data: { ...message.data, threadId: message.threadId },
    });
  });

  it('fits the 4,096-byte encrypted body: the preview is halved until it does, never dropped', () => {
    expect(MAX_PLAINTEXT_BYTES).toBe(4096 - 103);
    const full = encodeWebPayload(message);
    expect(decode(full).body).toBe(message.body);
    const fitted = encodeWebPayload(message, full.length - 1);
    expect(fitted.length).toBeLessThan(full.length);
    expect(decode(fitted).body.length).toBeLessThanOrEqual(40);
    // Even a limit no body fits sends the title and data with an empty preview.
    expect(decode(encodeWebPayload(message, 10)).body).toBe('');
  });

  it('halving is strictly shorter down to an empty body', () => {
    let current = message;
    const lengths: number[] = [];
    while (current.body) {
      current = halveBody(current);
      lengths.push(Array.from(current.body).length);
    }
    expect(lengths[0]).toBeLessThanOrEqual(40);
    for (let i = 1; i < lengths.length; i++) expect(lengths[i]).toBeLessThan(lengths[i - 1]!);
    expect(halveBody({ ...message, body: '🛹🛹' }).body.length).toBeLessThan('🛹🛹'.length);
  });
});

describe('web push headers', () => {
  it('messages: TTL 60, urgency high, topic msg-<conversation>; reminders: TTL 86400, normal, no topic', () => {
    expect(webPushHeaders('messages', message)).toEqual({ ttl: 60, urgency: 'high', topic: `msg-${'a'.repeat(24)}` });
    expect(webPushHeaders('reminders', { ...message, data: { url: '/x', category: 'reminders' } })).toEqual({
      ttl: 86_400,
      urgency: 'normal',
    });
  });

  it('leaves the topic out when the conversation id would not make a valid one (32 URL-safe characters)', () => {
    const odd = { ...message, data: { ...message.data, conversationId: 'not a topic!' } };
    expect(webPushHeaders('messages', odd).topic).toBeUndefined();
  });
});

describe("the push service's answers", () => {
  it.each([
    [201, 'accepted'],
    [202, 'accepted'],
    [404, 'gone'],
    [410, 'gone'],
    [413, 'too-large'],
    [429, 'retry'],
    [500, 'retry'],
    [503, 'retry'],
    [400, 'refused'],
    [401, 'refused'],
    [403, 'refused'],
  ] as const)('%i is %s', (status, answer) => expect(classifyWebAnswer(status)).toBe(answer));

  it('honours Retry-After in seconds or as a date, backs off without it, and gives up beyond the run', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    expect(retryDelayMs('2', 0, now)).toBe(2000);
    expect(retryDelayMs('Mon, 23 Nov 2026 12:00:03 GMT', 0, now)).toBe(3000);
    expect(retryDelayMs('120', 0, now)).toBeNull();
    const backoff = retryDelayMs(null, 2, now)!;
    expect(backoff).toBeGreaterThanOrEqual(LIMITS.push.retryBaseMs * 4);
    expect(backoff).toBeLessThanOrEqual(LIMITS.push.retryAfterMaxMs);
  });
});

describe('soft ask', () => {
  const DAY = 24 * 60 * 60 * 1000;
  const now = new Date('2026-11-23T12:00:00Z');
  const declined = (days: number) =>
    withDefaults({ softAsk: { web: { declinedAt: new Date(now.getTime() - days * DAY) } } }, 'UTC');

  it('repeats a declined ask after exactly 7 days, not before', () => {
    expect(shouldAskOn(declined(6), 'web', now)).toBe(false);
    expect(shouldAskOn(declined(LIMITS.push.softAskRepeatDays - 1 / 24), 'web', now)).toBe(false);
    expect(shouldAskOn(declined(LIMITS.push.softAskRepeatDays), 'web', now)).toBe(true);
    expect(shouldAskOn(declined(8), 'web', now)).toBe(true);
    expect(shouldAskOn(declined(6), 'ios', now)).toBe(true);
  });

  it('never asks once accepted or once the OS settled the permission', () => {
    expect(shouldAskOn(withDefaults({ softAsk: { ios: { acceptedAt: now } } }, 'UTC'), 'ios', now)).toBe(false);
    for (const state of ['granted', 'denied'] as const)
      expect(shouldAskOn(withDefaults({ osPermission: { android: state } }, 'UTC'), 'android', now)).toBe(false);
    for (const state of ['unknown', 'provisional'] as const)
      expect(shouldAskOn(withDefaults({ osPermission: { android: state } }, 'UTC'), 'android', now)).toBe(true);
  });
});
