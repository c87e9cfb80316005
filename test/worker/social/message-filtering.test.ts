import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { register, type TestAccount } from '../../support/accounts';
import { call } from '../../support/content';
import { createApi } from '../../support/worker-api';

// Direct messages are private: never refused for their words, but a matched one is folded for non-followers.

const api = createApi('message-filtering');

async function groupOf(owner: TestAccount, others: TestAccount[]): Promise<string> {
  const res = await call(api, 'POST', '/api/conversations', {
    as: owner,
    json: { participantIds: others.map((other) => other._id) },
  });
  expect(res.status).toBe(201);
  return (await res.json<{ _id: string }>())._id;
}

const send = (from: TestAccount, id: string, text: string) =>
  call(api, 'POST', `/api/conversations/${id}/messages`, { as: from, json: { text } });
const listed = async (reader: TestAccount, id: string) =>
  (await (await call(api, 'GET', `/api/conversations/${id}/messages`, { as: reader })).json<{ items: any[] }>()).items;

describe('direct messages and the word filter', () => {
  it('delivers a matched message, marked filtered for the participants who do not follow its sender', async () => {
    const [ana, ben, cal] = [await register(api), await register(api), await register(api)];
    expect((await call(api, 'PUT', `/api/users/${ana._id}/follow`, { as: cal })).status).toBe(200);
    const id = await groupOf(ana, [ben, cal]);

    const sent = await send(ana, id, 'sh1t, that rail was gnarly');
    expect(sent.status).toBe(201);
    const message = await sent.json<Record<string, unknown>>();
    expect(message.text).toBe('sh1t, that rail was gnarly');
    expect(message).not.toHaveProperty('filtered');
    expect((await send(ana, id, 'that rail was gnarly')).status).toBe(201);

    const [forBen, forCal, forAna] = [await listed(ben, id), await listed(cal, id), await listed(ana, id)];
    expect(forBen.map((m) => [m.text, m.filtered])).toEqual([
      ['that rail was gnarly', undefined],
      ['sh1t, that rail was gnarly', true],
    ]);
    expect(forCal.map((m) => m.filtered)).toEqual([undefined, undefined]);
    expect(forAna.map((m) => m.filtered)).toEqual([undefined, undefined]);
    const stored = await api.db((db) =>
      db.collection('dm_messages').findOne({ _id: new ObjectId(String(message._id)) }),
    );
    expect(stored?.filtered).toBe(true);

    // Following the sender later unfolds what they sent.
    expect((await call(api, 'PUT', `/api/users/${ana._id}/follow`, { as: ben })).status).toBe(200);
    expect((await listed(ben, id)).map((m) => m.filtered)).toEqual([undefined, undefined]);
  });
});
