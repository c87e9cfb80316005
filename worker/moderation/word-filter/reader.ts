import type { ObjectId } from 'mongodb';
import { createdAtOf, readId, readOneOf, readRecord, readString } from '../../platform/db/stored-values';
import { type FilterTerm, normalizeTerm, TERM_KINDS, TERM_MATCHES } from './matching';

export interface ReadTerm extends FilterTerm {
  _id: ObjectId;
  createdAt: Date;
}

/** A listed term as read back; undefined when it holds no term. A term stored before `kind`/`match` is a blocked word. */
export function readTerm(stored: unknown): ReadTerm | undefined {
  const doc = readRecord(stored);
  const _id = readId(doc?._id);
  const term = normalizeTerm(readString(doc?.term) ?? '');
  if (!doc || !_id || !term) return undefined;
  return {
    _id,
    term,
    kind: readOneOf(doc.kind, TERM_KINDS) ?? 'block',
    match: readOneOf(doc.match, TERM_MATCHES) ?? 'word',
    createdAt: createdAtOf(doc),
  };
}
