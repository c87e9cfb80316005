import { afterEach, describe, expect, it, vi } from 'vitest';
import { register } from '../../support/accounts';
import { eventLines, leakedSecrets } from '../../support/log-lines';
import { createApi, type TestEnv } from '../../support/worker-api';

// The rooms unreachable: every call to a socket shard or a rider's directory entry fails.
const unreachable = {
  idFromName: (name: string) => name,
  idFromString: (id: string) => id,
  get: () => {
    throw new Error('Durable Object unreachable');
  },
} as unknown as TestEnv['SOCKET_SHARD'];
const api = createApi('realtime-publish', {
  SOCKET_SHARD: unreachable,
  RIDER_PRESENCE: unreachable as unknown as TestEnv['RIDER_PRESENCE'],
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('publishing real-time events', () => {
  it('never fails the write it reports, and logs what was not published', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const [alice, bob] = await Promise.all([register(api), register(api)]);
    const posted = await api.fetch('/api/feed', {
      method: 'POST',
      headers: { 'x-auth-token': alice.token },
      json: { text: 'the rooms are down', media: [] },
    });
    expect(posted.status).toBe(201);
    const conversation = await api.fetch('/api/conversations', {
      method: 'POST',
      headers: { 'x-auth-token': alice.token },
      json: { participantIds: [bob._id] },
    });
    const { _id: conversationId } = (await conversation.json()) as { _id: string };
    const sent = await api.fetch(`/api/conversations/${conversationId}/messages`, {
      method: 'POST',
      headers: { 'x-auth-token': alice.token },
      json: { text: 'stored anyway' },
    });
    expect(sent.status).toBe(201);

    const feed = (await (await api.fetch('/api/feed')).json()) as { items: { text: string }[] };
    expect(feed.items.map((item) => item.text)).toContain('the rooms are down');
    const messages = await api.fetch(`/api/conversations/${conversationId}/messages`, {
      headers: { 'x-auth-token': bob.token },
    });
    expect(((await messages.json()) as { items: { text: string }[] }).items[0]!.text).toBe('stored anyway');
    const wheres = logged.mock.calls
      .map((call) => String(call[0]))
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line).where);
    expect(wheres).toContain('realtime publish: post:created on /feed');
    expect(wheres).toContain('realtime publish: message:created on /messages');
    // The push step after the answer cannot ask who is viewing either; its line carries the sending request's id.
    const lines = logged.mock.calls.map((call) => String(call[0]));
    expect(eventLines(lines, 'push.viewers.unknown')).toEqual([
      expect.objectContaining({ level: 'error', conversationId, requestId: sent.headers.get('x-request-id') }),
    ]);
    expect(leakedSecrets(lines, { text: 'stored anyway' })).toEqual([]);
  });
});
