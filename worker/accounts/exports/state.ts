import type { DataExportDoc, ExportState } from '../documents';

/** The state a client sees: a ready file past its expiry is `expired` even before the cleanup deletes it. */
export function shownState(doc: Pick<DataExportDoc, 'state' | 'expiresAt'>, now: Date): ExportState {
  return doc.state === 'ready' && (!doc.expiresAt || doc.expiresAt <= now) ? 'expired' : doc.state;
}

/** Whether the export's file can be fetched now, or why not. */
export function fileAvailability(
  doc: Pick<DataExportDoc, 'state' | 'expiresAt'>,
  now: Date,
): 'available' | 'not-ready' | 'failed' | 'expired' {
  const state = shownState(doc, now);
  if (state === 'ready') return 'available';
  return state === 'queued' || state === 'building' ? 'not-ready' : state;
}
