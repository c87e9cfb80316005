import { z } from '@hono/zod-openapi';
import { IdString, pathId } from '../../platform/http/ids';
import { LIMITS } from '../../platform/limits';
import { EXPORT_STATES } from '../documents';

export const ExportParam = z.object({ exportId: pathId('exportId') });
export const RiderExportParam = z.object({ id: pathId('id'), exportId: pathId('exportId') });

export const DataExport = z
  .object({
    _id: z.string(),
    state: z
      .enum(EXPORT_STATES)
      .describe('queued → building → ready → expired; failed once every attempt failed (docs/data-export.md)'),
    day: z.string().describe('the UTC day it was asked on, YYYY-MM-DD: one export a day'),
    requestedAt: z.string(),
    startedBy: z.enum(['rider', 'admin']).describe('admin: started by support answering a request by mail'),
    bytes: z.number().int().nullable().describe('the ZIP file’s size, once ready'),
    readyAt: z.string().nullable(),
    expiresAt: z
      .string()
      .nullable()
      .describe(`when the file is deleted: ${LIMITS.dataExports.keepDays} days after it was ready`),
    failure: z.string().nullable().describe('why it failed, in words to show the rider'),
  })
  .openapi('DataExport');

export const DataExportList = z.object({ exports: z.array(DataExport) }).openapi('DataExportList');

export const DownloadLink = z
  .object({
    url: z.string().describe('GET it without a token; it works until expiresAt'),
    expiresAt: z.string(),
  })
  .openapi('DataExportDownloadLink');

/** What a download link carries besides the export's id (docs/data-export.md). */
export const LinkQuery = z.object({
  expires: z.coerce.number().int().positive().describe('epoch seconds after which the link is refused'),
  signature: z.string().max(100).describe('the link’s signature'),
});

export const FileParam = z.object({ exportId: IdString.openapi({ param: { name: 'exportId', in: 'path' } }) });
