import type { Document, Filter, ObjectId } from 'mongodb';
import type { CollectionName } from '../../platform/db/collections';
import type { Cleanup } from '../../platform/db/personal-data';
import { ANOTHER_RIDER } from './readable';

/** One JSON file of an export: a collection and what selects the rider's documents in it. */
export interface ExportSection {
  collection: CollectionName;
  /** The file's name inside the archive. */
  file: string;
  /** The rider's documents: the union of what the collection's cleanups select, in every stored id form. */
  select: (riderId: ObjectId) => Filter<Document>;
  /** How another rider named in a document is shown: by display name only where the rider talked with them. */
  others: 'display name' | typeof ANOTHER_RIDER;
  /** Messages the other participants sent in the rider's conversations: selected by the conversations found. */
  threadOf?: { collection: CollectionName; field: string };
  /** Fields another rider wrote about the rider (a report's note), withheld unless `author` names the rider. */
  othersWords?: { author: string; fields: readonly string[] };
}

/**
 * Collections where the rider took part in a conversation: there, and only there, the other participants are
 * shown by name with their messages (worker/social/conversations/, worker/social/messages/).
 */
const CONVERSATIONS: Partial<Record<CollectionName, Pick<ExportSection, 'others' | 'threadOf'>>> = {
  conversations: { others: 'display name' },
  dm_messages: { others: 'display name', threadOf: { collection: 'conversations', field: 'conversationId' } },
};

/** A report about the rider keeps the reporter's words to moderation (worker/social/reports/). */
const OTHERS_WORDS: Partial<Record<CollectionName, ExportSection['othersWords']>> = {
  reports: { author: 'reporterId', fields: ['note'] },
};

/**
 * The files of an export, derived from the personal-data rules so a collection added there is exported with no
 * code here: the rider's account first (it is removed by the accounts domain itself, not by a cleanup), then each
 * collection the cleanups name, once, selecting what any of its cleanups would remove or detach.
 */
export function exportSections(cleanups: readonly Cleanup[]): ExportSection[] {
  const filters = new Map<CollectionName, ((riderId: ObjectId) => Filter<Document>)[]>();
  for (const cleanup of cleanups) {
    const select = cleanupFilter(cleanup);
    filters.set(cleanup.collection, [...(filters.get(cleanup.collection) ?? []), select]);
  }
  const sections: ExportSection[] = [
    { collection: 'users', file: 'account.json', select: (riderId) => ({ _id: riderId }), others: ANOTHER_RIDER },
  ];
  for (const [collection, selects] of filters) {
    if (collection === 'users') continue;
    sections.push({
      collection,
      file: `${collection}.json`,
      select: (riderId) => (selects.length === 1 ? selects[0]!(riderId) : { $or: selects.map((s) => s(riderId)) }),
      others: ANOTHER_RIDER,
      ...CONVERSATIONS[collection],
      ...(OTHERS_WORDS[collection] ? { othersWords: OTHERS_WORDS[collection] } : {}),
    });
  }
  return sections;
}

/** What a cleanup selects: its removal filter, or the filter of the documents it detaches the rider from. */
function cleanupFilter(cleanup: Cleanup): (riderId: ObjectId) => Filter<Document> {
  if ('remove' in cleanup) return cleanup.remove;
  if ('removeEach' in cleanup) return cleanup.removeEach;
  return (riderId) => cleanup.detach(riderId).filter;
}
