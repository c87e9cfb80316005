import type { ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import type { IngestionRunDoc } from '../documents';

// Every query on the run log (collection ingestion_runs).

export type NewIngestionRun = Omit<IngestionRunDoc, '_id'>;

export async function recordRun(store: Store, run: NewIngestionRun): Promise<IngestionRunDoc> {
  const { insertedId } = await store.ingestion_runs.insertOne(run as IngestionRunDoc);
  return { ...run, _id: insertedId };
}

/** The source's last successful run, for the zero-events rule. */
export function lastSucceededRun(store: Store, source: string): Promise<IngestionRunDoc | null> {
  return store.ingestion_runs.findOne({ source, status: 'succeeded' }, { sort: { startedAt: -1 } });
}

/** A page of run records, newest first (`limit + 1` rows for the pager). */
export function listRuns(store: Store, query: { limit: number; cursor?: ObjectId }): Promise<IngestionRunDoc[]> {
  return store.ingestion_runs
    .find(query.cursor ? { _id: { $lt: query.cursor } } : {})
    .sort({ _id: -1 })
    .limit(query.limit + 1)
    .toArray();
}
