import type { CreateIndexesOptions, Db, IndexSpecification } from 'mongodb';
import type { CollectionName } from './collections';

/** One index a domain relies on; each domain declares its own in its indexes.ts. */
export interface IndexDeclaration {
  collection: CollectionName;
  key: IndexSpecification & Record<string, 1 | -1 | 'text' | '2dsphere'>;
  options: CreateIndexesOptions & { name: string };
  /** Why the index exists; printed into migrations-notes/indexes.md. */
  why: string;
}

/** Creates the declared indexes; creating an existing identical index is a no-op. */
export async function createDeclaredIndexes(db: Db, declarations: readonly IndexDeclaration[]): Promise<number> {
  // One createIndexes command per collection, the collections side by side: a fresh database (each test
  // file's, a new deployment's) is ready after a few round trips instead of one per index.
  const byCollection = new Map<string, IndexDeclaration[]>();
  for (const index of declarations)
    byCollection.set(index.collection, [...(byCollection.get(index.collection) ?? []), index]);
  await Promise.all(
    [...byCollection].map(([collection, indexes]) =>
      db.collection(collection).createIndexes(indexes.map(({ key, options }) => ({ key, ...options }))),
    ),
  );
  return declarations.length;
}
