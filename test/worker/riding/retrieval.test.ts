import { describe, expect, it } from 'vitest';
import { registerAdmin } from '../../support/accounts';
import { chat, companionApi } from '../../support/companion';
import { call, createCategory } from '../../support/content';
import { createSpot } from '../../support/spots';
import { vectorizeStandIn } from '../../support/vectorize-stand-in';

// Retrieval through a vector store. Vectorize has no local simulator, so the binding is
// test/support/vectorize-stand-in.ts (cosine similarity in memory) and the embeddings come from the OpenAI
// stand-in's bag-of-words endpoint (test/support/stand-ins/openai.ts). A second Worker on the same database,
// without the binding, shows the keyword search as it was.
const index = vectorizeStandIn();
const semantic = companionApi('retrieval', {
  VECTORIZE: index,
  OPENAI_EMBEDDING_MODEL: 'text-embedding-3-small',
  COMPANION_MESSAGES_PER_MINUTE: '1000',
});
const keyword = companionApi('retrieval-keyword', { MONGODB_URI: semantic.api.env.MONGODB_URI });
const admin = registerAdmin(semantic.api);
const BY_MEANING = 'the one where the board spins under you';

const SHOVE_IT = {
  name: 'Pop shove-it',
  sport: 'skateboarding',
  description: 'The board spins 180 degrees under your feet while you stay facing forward, then you land back on it.',
};
const KICKFLIP = {
  name: 'Kickflip',
  sport: 'skateboarding',
  description: 'Flick the front foot off the nose so the board flips along its length before you catch it.',
};

async function addEntry(fields: typeof SHOVE_IT) {
  const boss = await admin;
  const res = await call(semantic.api, 'POST', '/api/trickipedia', {
    as: boss,
    json: { ...fields, category: 'flatground' },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json<{ _id: string }>();
}

/** Asks the companion to look a trick up and returns what the tool handed the model. */
async function lookUp(target: typeof semantic, text: string) {
  await target.script({
    steps: [{ toolCalls: [{ name: 'lookup_trick', arguments: { name: text } }] }, { reply: 'Got it.' }],
  });
  const rider = await registerAdmin(target.api);
  await chat(target.api, rider, `what is ${text}?`);
  const [, second] = await target.requests();
  const tool = second!.messages.find((message) => message.role === 'tool')!;
  return JSON.parse(tool.content!) as { entries: { name: string }[] };
}

describe('retrieval by meaning', () => {
  it('finds a trick by what it does, where keyword search finds nothing', async () => {
    await createCategory(semantic.api, await admin, { name: 'Flatground', slug: 'flatground', sport: 'skateboarding' });
    await addEntry(KICKFLIP);
    await addEntry(SHOVE_IT);
    expect(index.vectors.size).toBe(2);
    expect((await lookUp(semantic, BY_MEANING)).entries[0]).toMatchObject({ name: 'Pop shove-it' });
    expect((await lookUp(keyword, BY_MEANING)).entries).toEqual([]);
    // A name still works both ways.
    expect((await lookUp(keyword, 'kickflip')).entries[0]).toMatchObject({ name: 'Kickflip' });
    expect((await lookUp(semantic, 'kickflip')).entries[0]).toMatchObject({ name: 'Kickflip' });
  });

  it('keeps the index in step with updates and deletes, after the response', async () => {
    const boss = await admin;
    const entry = await addEntry({ ...SHOVE_IT, name: 'Bigspin' });
    const put = await call(semantic.api, 'PUT', `/api/trickipedia/${entry._id}`, {
      as: boss,
      json: { ...SHOVE_IT, name: 'Bigspin', category: 'flatground', description: 'A varial with a body turn.' },
    });
    expect(put.status).toBe(200);
    const stored = [...index.vectors.values()].find((v) => v.id === `trick:${entry._id}`)!;
    expect(stored.metadata).toEqual({ kind: 'trick', sport: 'skateboarding' });
    expect((await call(semantic.api, 'DELETE', `/api/trickipedia/${entry._id}`, { as: boss })).status).toBe(200);
    expect(index.vectors.has(`trick:${entry._id}`)).toBe(false);
  });

  it('indexes what was stored before through the backfill, a page per call', async () => {
    const boss = await admin;
    await semantic.api.db((db) =>
      db.collection('trickipedia').insertOne({
        name: 'Boneless',
        slug: 'boneless',
        sport: 'skateboarding',
        category: 'flatground',
        description: 'Plant the front foot on the ground, grab the board and jump back on.',
        aliases: [],
        createdAt: new Date(),
        updatedAt: new Date(),
      }),
    );
    const before = index.vectors.size;
    const res = await call(semantic.api, 'POST', '/api/admin/retrieval/backfill', {
      as: boss,
      json: { kind: 'trick' },
    });
    expect(await res.json()).toEqual({ indexed: before + 1, next: null });
    expect((await lookUp(semantic, 'plant your foot on the ground and grab')).entries[0]).toMatchObject({
      name: 'Boneless',
    });
  });

  it("maps spots back to the stored documents and keeps the rider's sport filter", async () => {
    const boss = await admin;
    await createSpot(semantic.api, boss, {
      name: 'Harbour ledges',
      description: 'Marble ledges by the water',
      sports: ['skateboarding'],
    });
    await createSpot(semantic.api, boss, {
      name: 'Dirt yard',
      description: 'Jumps and ledges by the water',
      sports: ['bmx'],
    });
    await semantic.script({
      steps: [
        { toolCalls: [{ name: 'search_spots', arguments: { place: 'ledges near the water', sport: 'bmx' } }] },
        { reply: 'Ok.' },
      ],
    });
    await chat(semantic.api, await registerAdmin(semantic.api), 'ledges by the water for bmx?');
    const tool = (await semantic.requests())[1]!.messages.find((message) => message.role === 'tool')!;
    expect(JSON.parse(tool.content!).spots.map((spot: { name: string }) => spot.name)).toEqual(['Dirt yard']);
  });

  it('finds published blog posts by meaning, never a draft, and by title without the vector store', async () => {
    const boss = await admin;
    const publish = async (title: string, body: string, status = 'published') => {
      const res = await call(semantic.api, 'POST', '/api/blog', { as: boss, json: { title, body, status } });
      expect(res.status, await res.clone().text()).toBe(201);
    };
    await publish('Winter gear guide', 'Layers, gloves and goggles that keep you warm on the chairlift in deep cold.');
    await publish('Park etiquette', 'Call your drop, wait your turn and keep the landing clear.');
    await publish('Unreleased goggles review', 'Goggles that keep you warm and fog free on the chairlift.', 'draft');
    const askBlog = async (target: typeof semantic, topic: string) => {
      await target.script({
        steps: [{ toolCalls: [{ name: 'search_blog', arguments: { topic } }] }, { reply: 'Here.' }],
      });
      await chat(target.api, await registerAdmin(target.api), `anything on the blog about ${topic}?`);
      const tool = (await target.requests())[1]!.messages.find((message) => message.role === 'tool')!;
      return (JSON.parse(tool.content!) as { posts: { title: string; slug: string }[] }).posts;
    };
    const byMeaning = await askBlog(semantic, 'staying warm on the chairlift');
    expect(byMeaning[0]).toMatchObject({ title: 'Winter gear guide', slug: 'winter-gear-guide' });
    expect(byMeaning.map((post) => post.title)).not.toContain('Unreleased goggles review');
    expect(await askBlog(keyword, 'staying warm on the chairlift')).toEqual([]);
    expect((await askBlog(keyword, 'etiquette')).map((post) => post.title)).toEqual(['Park etiquette']);
  });

  it('says which search is active, and refuses the backfill without a vector store', async () => {
    expect(await (await semantic.api.fetch('/api/health')).json()).toMatchObject({ retrieval: 'semantic' });
    expect(await (await keyword.api.fetch('/api/health')).json()).toMatchObject({ retrieval: 'keyword' });
    const res = await call(keyword.api, 'POST', '/api/admin/retrieval/backfill', {
      as: await registerAdmin(keyword.api),
      json: { kind: 'spot' },
    });
    expect(res.status).toBe(409);
  });
});
