import type { Context } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import { refusal } from '../../platform/http/refusals';
import { LIMITS } from '../../platform/limits';
import { signingKeys } from '../../platform/tokens/keys';
import type { DataExportDoc } from '../documents';
import { signLink } from './download-link';
import { EXPORT_REFUSALS } from './refusals';
import { fileAvailability } from './state';

/**
 * A short-lived link to a ready export's file, on this origin; the refusal when it has none to fetch (still
 * building, failed, expired). The link names the export, never the file's key.
 */
export async function downloadLink(c: Context<AppEnv>, doc: DataExportDoc, now = new Date()) {
  const availability = fileAvailability(doc, now);
  if (availability !== 'available') throw refusal(EXPORT_REFUSALS, availability);
  const expires = Math.floor(now.getTime() / 1000) + LIMITS.dataExports.linkMinutes * 60;
  const signature = await signLink(signingKeys(c.env), { exportId: doc._id, riderId: doc.riderId, expires });
  const url = new URL(`/api/exports/${doc._id.toHexString()}/file`, c.req.url);
  url.search = new URLSearchParams({ expires: String(expires), signature }).toString();
  return { url: url.toString(), expiresAt: new Date(expires * 1000).toISOString() };
}
