import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { register } from '../../support/accounts';
import { chat, companionApi, sendChat } from '../../support/companion';
import { createList } from '../../support/trick-lists';

// The brain against a local OpenAI-compatible server (test/support/stand-ins/openai.ts), scripted per test.
const model = companionApi('companion-model');
const { api } = model;

const toolMessages = (request: { messages: { role: string; content: string | null }[] }) =>
  request.messages.filter((message) => message.role === 'tool').map((message) => JSON.parse(message.content!));

describe('the tool loop', () => {
  it('stops after 3 tool rounds and asks for a final answer without tools', async () => {
    await model.script({
      steps: [{ toolCalls: [{ name: 'lookup_trick', arguments: { name: 'kickflip' } }] }],
      final: 'Enough research, go skate.',
    });
    const rider = await register(api);
    const { reply } = await chat(api, rider, 'tell me about kickflips');
    expect(reply).toBe('Enough research, go skate.');
    const requests = await model.requests();
    expect(requests.map((request) => request.tool_choice)).toEqual(['auto', 'auto', 'auto', 'none']);
    expect(requests.map((request) => toolMessages(request).length)).toEqual([0, 1, 2, 3]);
  });

  it('answers in persona even when the model still wants tools on the final call', async () => {
    await model.script({ steps: [{ toolCalls: [{ name: 'list_my_tricks', arguments: {} }] }] });
    const rider = await register(api);
    const { reply } = await chat(api, rider, 'what should I learn?');
    expect(reply).toBe('Sorry, I lost my line there. Say that again?');
    expect(await model.requests()).toHaveLength(4);
  });

  it('offers every tool with a JSON schema made from its zod schema', async () => {
    await model.script({ steps: [{ reply: 'Hi.' }] });
    await chat(api, await register(api), 'hi');
    const [request] = await model.requests();
    const tools = Object.fromEntries(request!.tools!.map((tool) => [tool.function.name, tool.function.parameters]));
    expect(Object.keys(tools).sort()).toEqual(
      [
        'add_trick_to_list',
        'list_my_tricks',
        'lookup_trick',
        'remember_fact',
        'search_blog',
        'search_events',
        'search_spots',
      ].sort(),
    );
    expect(tools.add_trick_to_list).toMatchObject({
      type: 'object',
      properties: { trick: { type: 'string', minLength: 1, maxLength: 100 } },
      required: ['trick'],
      additionalProperties: false,
    });
  });

  it('hands tool errors and invalid arguments to the model as tool results, and still replies', async () => {
    await model.script({
      steps: [
        {
          toolCalls: [
            { name: 'search_spots', arguments: '{not json' },
            { name: 'add_trick_to_list', arguments: { trick: '' } },
            { name: 'no_such_tool', arguments: {} },
            { name: 'remember_fact', arguments: { fact: 'curling', kind: 'sport' } },
          ],
        },
        { reply: 'My tools are acting up.' },
      ],
    });
    const rider = await register(api);
    const { reply } = await chat(api, rider, 'do stuff');
    expect(reply).toBe('My tools are acting up.');
    const results = toolMessages((await model.requests())[1]!);
    expect(results).toEqual([
      { error: 'invalid arguments: not JSON' },
      { error: 'invalid arguments', details: [expect.objectContaining({ field: 'trick' })] },
      { error: 'no tool named no_such_tool' },
      { error: 'unknown sport; one of skateboarding, snowboarding, bmx, wakeboarding' },
    ]);
  });

  it("reads and adds to the caller's own trick lists only", async () => {
    const [rider, other] = [await register(api), await register(api)];
    const otherList = await createList(api, other, { name: 'Secret', sport: 'bmx' });
    await model.script({
      steps: [
        { toolCalls: [{ name: 'list_my_tricks', arguments: {} }] },
        { toolCalls: [{ name: 'add_trick_to_list', arguments: { trick: 'barspin', list: 'Secret' } }] },
        { reply: 'Added.' },
      ],
    });
    await chat(api, rider, 'sort my list out');
    const [, second, third] = await model.requests();
    expect(toolMessages(second!)).toEqual([{ lists: [] }]);
    expect(toolMessages(third!)[1]).toMatchObject({ added: 'barspin', list: 'Secret' });
    const lists = await api.db((db) => db.collection('tricklists').find({ name: 'Secret' }).toArray());
    expect(lists.map((list) => list.userId.toHexString()).sort()).toEqual([other._id, rider._id].sort());
    expect(await api.db((db) => db.collection('tricks').countDocuments({ listId: new ObjectId(otherList._id) }))).toBe(
      0,
    );
  });
});

describe('the prompt', () => {
  it('carries the persona, the memory from both surfaces and the prompt once', async () => {
    await model.script({ steps: [{ reply: 'Noted.' }] });
    const rider = await register(api);
    await chat(api, rider, 'first on the web', { path: '/api/dm' });
    await chat(api, rider, 'then on the phone');
    await chat(api, rider, 'then on the phone');
    const last = (await model.requests()).at(-1)!;
    expect(last.messages[0]!.role).toBe('system');
    expect(last.messages[0]!.content).toContain('1 to 3 short sentences');
    expect(last.messages.slice(1).map((message) => [message.role, message.content])).toEqual([
      ['user', 'first on the web'],
      ['assistant', 'Noted.'],
      ['assistant', 'Noted.'],
      ['user', 'then on the phone'],
    ]);
  });

  it('keeps a long answer to 3 sentences', async () => {
    await model.script({ steps: [{ reply: 'One. Two. Three. Four. Five.' }] });
    expect((await chat(api, await register(api), 'talk')).reply).toBe('One. Two. Three.');
  });
});

describe('provider failures', () => {
  it('retries once on 429 and answers', async () => {
    await model.script({ steps: [{ status: 429, retryAfterMs: 10 }, { reply: 'Back again.' }] });
    expect((await chat(api, await register(api), 'hello?')).reply).toBe('Back again.');
    expect(await model.requests()).toHaveLength(2);
  });

  it('answers 502 after a 5xx and its one retry, keeping the stored message and nothing else', async () => {
    await model.script({ steps: [{ status: 500, retryAfterMs: 10 }] });
    const rider = await register(api);
    const res = await sendChat(api, rider, 'are you there?');
    expect(res.status).toBe(502);
    expect((await res.json<any>()).error).toMatch(/message is kept/);
    expect(await model.requests()).toHaveLength(2);
    const userId = new ObjectId(rider._id);
    const rows = await api.db((db) => db.collection('bot_chats').find({ userId }).toArray());
    expect(rows.map((row) => [row.role, row.text])).toEqual([['user', 'are you there?']]);
    expect(await api.db((db) => db.collection('companion_profiles').countDocuments({ userId }))).toBe(0);
  });

  it('answers 503 with Retry-After when the model does not answer in time', async () => {
    const slow = companionApi('companion-model-slow', { OPENAI_TIMEOUT_MS: '300' });
    await slow.script({ steps: [{ hang: true }] });
    const rider = await register(slow.api);
    const res = await sendChat(slow.api, rider, 'hello?', { path: '/api/dm' });
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const rows = await slow.api.db((db) =>
      db
        .collection('dm_messages')
        .find({ userId: new ObjectId(rider._id) })
        .toArray(),
    );
    expect(rows.map((row) => row.text)).toEqual(['hello?']);
  });
});

describe('AI analytics', () => {
  it('records the session start and each response with model, latency, counts and cost, never the text', async () => {
    await model.script({
      steps: [{ toolCalls: [{ name: 'list_my_tricks', arguments: {} }] }, { reply: 'Nothing yet.' }],
    });
    const rider = await register(api);
    await chat(api, rider, 'secret plans for Sunday');
    await chat(api, rider, 'more secret plans');
    const events = await api.db((db) =>
      db
        .collection('analytics_events')
        .find({ userId: new ObjectId(rider._id), name: /^ai_/ })
        .sort({ _id: 1 })
        .toArray(),
    );
    expect(events.map((event) => event.name)).toEqual([
      'ai_session_started',
      'ai_response_completed',
      'ai_response_completed',
    ]);
    expect(events[1]!.properties).toMatchObject({
      surface: 'bot',
      provider: 'openai',
      model: 'gpt-4o-mini',
      latencyMs: expect.any(Number),
      promptTokens: 240,
      completionTokens: 60,
      costMicros: 72,
      modelCalls: 2,
      toolCalls: 1,
      outputChars: 'Nothing yet.'.length,
    });
    expect(JSON.stringify(events)).not.toMatch(/secret|Nothing yet/);
  });
});
