import type { IngestionRunDoc } from '../documents';

export function ingestionRunView(run: IngestionRunDoc) {
  return {
    ...run,
    _id: run._id.toHexString(),
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt.toISOString(),
  };
}
