import { describe, expect, it } from 'vitest';
import { withDefaults } from '../../../worker/notifications/preferences/defaults';
import { shouldAskOn } from '../../../worker/notifications/preferences/soft-ask';
import type { Notification } from '../../../worker/notifications/push/notification';
import {
  boundedReason,
  classifyWebAnswer,
  encodeWebPayload,
  halveBody,
  MAX_PLAINTEXT_BYTES,
  retryDelayMs,
  webAnswerReason,
  webPushHeaders,
  webPushPayload,
} from '../../../worker/notifications/push/web-payload';
import {
  DEFAULT_WEB_PUSH_HOSTS,
  hostPatternProblem,
  isIpLiteral,
  isListedHost,
  parseWebPushHosts,
  webEndpointProblem,
} from '../../../worker/notifications/push-tokens/web-endpoint';
import { LIMITS } from '../../../worker/platform/limits';

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
    [301, 'redirected'],
    [307, 'redirected'],
    [308, 'redirected'],
  ] as const)('%i is %s', (status, answer) => expect(classifyWebAnswer(status)).toBe(answer));

  it('are told in our own words by status: a redirect, the VAPID hint for 400 to 403, nothing from the body', () => {
    expect(webAnswerReason(307)).toMatch(/redirect, not followed/);
    expect(webAnswerReason(403)).toContain('VAPID_PUBLIC_KEY');
    expect(webAnswerReason(418)).toBe('refused');
    expect(webAnswerReason(410)).toMatch(/gone/);
    expect(webAnswerReason(503)).toMatch(/unavailable/);
    for (const status of [200, 301, 400, 404, 413, 429, 500, 599])
      expect(webAnswerReason(status).length).toBeLessThan(200);
  });

  it("keeps a runtime error's text short and free of control characters", () => {
    expect(boundedReason('Network\r\nx-injected: yes\u0000')).toBe('Network x-injected: yes');
    const long = boundedReason('x'.repeat(1000));
    expect(Array.from(long)).toHaveLength(LIMITS.webPush.reasonMax);
    expect(long.endsWith('…')).toBe(true);
  });

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

describe('web push endpoints', () => {
  const rules = { hosts: DEFAULT_WEB_PUSH_HOSTS, allowLocal: false };
  const local = { ...rules, allowLocal: true };

  it.each([
    'https://fcm.googleapis.com/fcm/send/abc:def',
    'https://fcm.googleapis.com/wp/abc',
    'https://updates.push.services.mozilla.com/wpush/v2/abc',
    'https://wns2-par02p.notify.windows.com/w/?token=abc',
    'https://web.push.apple.com/QGuQyavXutnMH8',
    'https://FCM.googleapis.com:443/fcm/send/abc',
  ])('takes %s', (endpoint) => expect(webEndpointProblem(endpoint, rules)).toBeNull());

  it.each([
    ['https://169.254.169.254/latest/meta-data/', /IP address/],
    ['https://10.1.2.3/push', /IP address/],
    ['https://2130706433/push', /IP address/],
    ['https://0x7f000001/push', /IP address/],
    ['https://0x7f.1/push', /IP address/],
    ['https://0177.0.0.1/push', /IP address/],
    ['https://127.1/push', /IP address/],
    ['https://[::1]/push', /IP address/],
    ['https://[::ffff:169.254.169.254]/push', /IP address/],
    ['https://localhost/push', /push service/],
    ['http://fcm.googleapis.com/fcm/send/abc', /https/],
    ['ftp://fcm.googleapis.com/x', /https/],
    ['https://fcm.googleapis.com:8443/fcm/send/abc', /no port/],
    ['https://user:pw@fcm.googleapis.com/fcm/send/abc', /user name/],
    ['https://fcm.googleapis.com.example.com/x', /push service/],
    ['https://evilfcm.googleapis.com/x', /push service/],
    ['https://notify.windows.com/w/', /push service/],
    ['https://xnotify.windows.com/w/', /push service/],
    ['https://fcm.googleapis.com./x', /push service/],
    ['not a url', /https endpoint URL/],
  ])('refuses %s', (endpoint, problem) => expect(webEndpointProblem(endpoint, rules)).toMatch(problem));

  it('takes http on this machine only where local endpoints are allowed, and never https there', () => {
    for (const endpoint of [
      'http://127.0.0.1:4000/push/1',
      'http://localhost:4000/push/1',
      'http://[::1]:4000/push/1',
    ]) {
      expect(webEndpointProblem(endpoint, local)).toBeNull();
      expect(webEndpointProblem(endpoint, rules)).not.toBeNull();
    }
    for (const endpoint of [
      'https://127.0.0.1/p',
      'https://localhost/p',
      'http://10.1.2.3/p',
      'http://169.254.169.254/',
    ])
      expect(webEndpointProblem(endpoint, local)).not.toBeNull();
  });

  it('tells an IP address in the forms the URL parser leaves', () => {
    for (const host of ['127.0.0.1', '[::1]', '1.2.3.4.', 'a.0x10', 'example.123'])
      expect(isIpLiteral(host)).toBe(true);
    for (const host of ['fcm.googleapis.com', '123.example.com', '0x.example']) expect(isIpLiteral(host)).toBe(false);
  });

  it('matches `*.` entries on strict subdomains only', () => {
    expect(isListedHost('a.notify.windows.com', ['*.notify.windows.com'])).toBe(true);
    expect(isListedHost('a.b.notify.windows.com', ['*.notify.windows.com'])).toBe(true);
    expect(isListedHost('notify.windows.com', ['*.notify.windows.com'])).toBe(false);
    expect(isListedHost('evilnotify.windows.com', ['*.notify.windows.com'])).toBe(false);
  });

  it('WEB_PUSH_HOSTS: unset is the defaults, a list replaces them, an IP or a URL is refused naming the setting', () => {
    expect(parseWebPushHosts(undefined)).toEqual(DEFAULT_WEB_PUSH_HOSTS);
    expect(parseWebPushHosts('  ')).toEqual(DEFAULT_WEB_PUSH_HOSTS);
    expect(parseWebPushHosts(' Push.Example.net, *.push.example.org ')).toEqual([
      'push.example.net',
      '*.push.example.org',
    ]);
    for (const bad of [
      '10.0.0.1',
      '*.10.0.0.1',
      'https://push.example.net',
      'push.example.net:443',
      'localhost',
      '*',
      ',',
    ]) {
      expect(() => parseWebPushHosts(bad)).toThrow(/WEB_PUSH_HOSTS/);
    }
    for (const host of DEFAULT_WEB_PUSH_HOSTS) expect(hostPatternProblem(host)).toBeNull();
  });
});
