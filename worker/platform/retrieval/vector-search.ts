import type { ObjectId } from 'mongodb';
import { ObjectId as Id } from 'mongodb';
import OpenAI from 'openai';
import type { Env } from '../env';
import { describeError, logEvent } from '../ops/log-line';

// Optional retrieval through a vector store (the interface spec: "used only if present"): with a
// VECTORIZE binding and OPENAI_EMBEDDING_MODEL, documents are embedded at OPENAI_BASE_URL and the
// companion's look-ups search by meaning; without them nothing here runs and keyword search stays.

export type RetrievalMode = 'semantic' | 'keyword';
export type Retrievable = 'trick' | 'blog' | 'spot';

/** Which search the companion's look-ups use on this deployment (GET /api/health says it too). */
export function retrievalMode(env: Env): RetrievalMode {
  return env.VECTORIZE && env.OPENAI_EMBEDDING_MODEL?.trim() && env.OPENAI_API_KEY?.trim() ? 'semantic' : 'keyword';
}

/** The OpenAI-compatible embeddings endpoint at OPENAI_BASE_URL. */
async function embed(env: Env, texts: string[]): Promise<number[][]> {
  const client = new OpenAI({
    apiKey: env.OPENAI_API_KEY!.trim(),
    baseURL: env.OPENAI_BASE_URL?.trim() || undefined,
    maxRetries: 1,
  });
  const answer = await client.embeddings.create({
    model: env.OPENAI_EMBEDDING_MODEL!.trim(),
    input: texts,
    encoding_format: 'float',
  });
  return [...answer.data].sort((a, b) => a.index - b.index).map((row) => row.embedding);
}

/** One stored document as the index holds it: its id, the text embedded, and what queries filter on. */
export interface IndexedDocument {
  id: ObjectId;
  text: string;
  metadata: Record<string, string>;
}

const vectorId = (kind: Retrievable, id: ObjectId | string) => `${kind}:${String(id)}`;

/** Embeds and upserts documents of one kind (create, update, backfill). */
export async function indexDocuments(env: Env, kind: Retrievable, docs: IndexedDocument[]): Promise<void> {
  if (!docs.length || retrievalMode(env) !== 'semantic') return;
  const vectors = await embed(
    env,
    docs.map((doc) => doc.text),
  );
  await env.VECTORIZE!.upsert(
    docs.map((doc, i) => ({ id: vectorId(kind, doc.id), values: vectors[i]!, metadata: doc.metadata })),
  );
}

/** Takes documents out of the index (delete; a blog post back to draft). */
export async function unindexDocuments(env: Env, kind: Retrievable, ids: (ObjectId | string)[]): Promise<void> {
  if (!ids.length || retrievalMode(env) !== 'semantic') return;
  await env.VECTORIZE!.deleteByIds(ids.map((id) => vectorId(kind, id)));
}

/** The ids of the documents nearest in meaning to `text`, best first, matching the metadata filter. */
export async function semanticSearch(
  env: Env,
  kind: Retrievable,
  text: string,
  options: { topK: number; filter?: Record<string, string> },
): Promise<ObjectId[]> {
  const [vector] = await embed(env, [text]);
  const { matches } = await env.VECTORIZE!.query(vector!, {
    topK: options.topK,
    returnMetadata: 'all',
    filter: { kind, ...options.filter },
  });
  return matches.flatMap((match) => {
    const hex = match.id.slice(kind.length + 1);
    return match.id.startsWith(`${kind}:`) && Id.isValid(hex) ? [new Id(hex)] : [];
  });
}

/**
 * Runs index upkeep after the response, never slowing the write; a failure is logged, never the
 * write's (the backfill mends it). Without semantic retrieval nothing is scheduled at all.
 */
export function keepIndexed(
  env: Env,
  inBackground: (task: () => Promise<void>) => void,
  what: string,
  task: () => Promise<void>,
): void {
  if (retrievalMode(env) !== 'semantic') return;
  inBackground(async () => {
    try {
      await task();
    } catch (err) {
      logEvent('retrieval.index.failed', { document: what, error: describeError(err) });
    }
  });
}
