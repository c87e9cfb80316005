import { z } from '@hono/zod-openapi';
import { PageQuery, pageOf } from '../../platform/http/pagination';

export const IngestionRun = z
  .object({
    _id: z.string(),
    runId: z.string().describe('shared by the records of the sources run together'),
    source: z.string(),
    trigger: z.enum(['schedule', 'admin']),
    status: z.enum(['succeeded', 'failed']),
    startedAt: z.string(),
    finishedAt: z.string(),
    durationMs: z.number().int(),
    fetched: z.number().int().describe('upstream items read'),
    inserted: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int().describe('seen again with the same content: only lastSeenAt moved'),
    duplicates: z.number().int().describe('items the source listed more than once: written once'),
    failed: z.number().int().describe('items with unusable values, and refused writes'),
    skipped: z
      .number()
      .int()
      .describe('listings left alone because the stored event they would write to could not be read'),
    error: z.string().nullable().describe('why the run failed: a shape change, an HTTP error, a missing setting'),
  })
  .openapi('IngestionRun');

export const IngestionRunPage = pageOf(IngestionRun);
export const IngestionRunQuery = PageQuery;
export const IngestionRunResult = z
  .object({ runs: z.array(IngestionRun).describe('one record per source') })
  .openapi('IngestionRunResult');
