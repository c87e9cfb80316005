// A Vectorize index in memory, for the tests: Vectorize has no local simulator (wrangler and the pool
// only forward it to Cloudflare), so this implements the binding's documented interface the Worker
// uses (upsert, query with topK, returnMetadata and a metadata filter, deleteByIds, getByIds) by cosine
// similarity, and is handed to the Worker as its VECTORIZE binding through the test env.

type Metadata = Record<string, VectorizeVectorMetadata>;
interface Stored {
  id: string;
  values: number[];
  metadata: Metadata;
}

const cosine = (a: number[], b: number[]) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! ** 2;
    nb += b[i]! ** 2;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
};

/** Vectorize's metadata filter: a value is `$eq`; operators `$eq`, `$ne`, `$in`, `$nin`. */
function matchesFilter(metadata: Metadata, filter: Record<string, unknown> | undefined): boolean {
  return Object.entries(filter ?? {}).every(([key, condition]) => {
    const value = metadata[key];
    if (condition === null || typeof condition !== 'object') return value === condition;
    const ops = condition as Record<string, unknown>;
    if ('$eq' in ops && value !== ops.$eq) return false;
    if ('$ne' in ops && value === ops.$ne) return false;
    if ('$in' in ops && !(ops.$in as unknown[]).includes(value)) return false;
    if ('$nin' in ops && (ops.$nin as unknown[]).includes(value)) return false;
    return true;
  });
}

export class VectorizeStandIn {
  readonly vectors = new Map<string, Stored>();

  async upsert(vectors: VectorizeVector[]) {
    for (const v of vectors) this.vectors.set(v.id, { id: v.id, values: [...v.values], metadata: v.metadata ?? {} });
    return { mutationId: crypto.randomUUID() };
  }

  async insert(vectors: VectorizeVector[]) {
    return this.upsert(vectors.filter((v) => !this.vectors.has(v.id)));
  }

  async query(vector: number[], options: VectorizeQueryOptions = {}) {
    const topK = options.topK ?? 5;
    const withMetadata =
      options.returnMetadata === true || options.returnMetadata === 'all' || options.returnMetadata === 'indexed';
    const matches = [...this.vectors.values()]
      .filter((v) => matchesFilter(v.metadata, options.filter as Record<string, unknown> | undefined))
      .map((v) => ({ id: v.id, score: cosine(vector, v.values), ...(withMetadata ? { metadata: v.metadata } : {}) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, topK);
    return { count: matches.length, matches };
  }

  async deleteByIds(ids: string[]) {
    for (const id of ids) this.vectors.delete(id);
    return { mutationId: crypto.randomUUID() };
  }

  async getByIds(ids: string[]) {
    return ids.flatMap((id) => (this.vectors.has(id) ? [this.vectors.get(id)!] : []));
  }
}

/** The stand-in typed as the binding the Worker declares. */
export const vectorizeStandIn = () => new VectorizeStandIn() as unknown as VectorizeIndex & VectorizeStandIn;
