import type { DataExportDoc, ExportFailure } from '../documents';
import { shownState } from './state';

/** What a rider reads for each stored failure: what happened and what to do, never the service's internals. */
export const FAILURE_TEXT: Record<ExportFailure, string> = {
  'build-failed':
    'We could not put your data together, even after trying again. Ask for a new export tomorrow, or write to support if it fails again.',
  'build-interrupted':
    'Putting your data together was interrupted too often. Ask for a new export tomorrow, or write to support if it fails again.',
};

/** An export as its rider (or an admin) sees it: never its file's key, never the build's lease. */
export function exportView(doc: DataExportDoc, now = new Date()) {
  const state = shownState(doc, now);
  return {
    _id: doc._id.toHexString(),
    state,
    day: doc.day,
    requestedAt: doc.createdAt.toISOString(),
    startedBy: doc.requestedBy ? ('admin' as const) : ('rider' as const),
    bytes: state === 'ready' ? (doc.bytes ?? null) : null,
    readyAt: doc.readyAt?.toISOString() ?? null,
    expiresAt: doc.expiresAt?.toISOString() ?? null,
    failure: state === 'failed' ? FAILURE_TEXT[doc.failure ?? 'build-failed'] : null,
  };
}
