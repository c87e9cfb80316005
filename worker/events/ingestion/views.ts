import { readCount } from '../../platform/db/stored-values';
import type { IngestionRunDoc } from '../documents';

export function ingestionRunView(run: IngestionRunDoc) {
  return {
    ...run,
    _id: run._id.toHexString(),
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt.toISOString(),
    skipped: readCount(run.skipped) ?? 0,
  };
}
