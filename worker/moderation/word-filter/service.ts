import { ObjectId } from 'mongodb';
import { isDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import { LIMITS } from '../../platform/limits';
import type { ModerationTermDoc } from '../documents';
import type { FilterTerm } from './matching';

// Every query on the word filter's terms (moderation_terms).

/** Every listed term, oldest first; at most `termsMax`, which adding keeps to. */
export function listTerms(store: Store) {
  return store.moderation_terms.find({}).sort({ _id: 1 }).limit(LIMITS.wordFilter.termsMax).toArray();
}

/** Lists a term once (the unique index answers two admins adding it at once); 'full' at `termsMax` terms. */
export async function addTerm(store: Store, term: FilterTerm): Promise<ModerationTermDoc | 'taken' | 'full'> {
  if (
    (await store.moderation_terms.countDocuments({}, { limit: LIMITS.wordFilter.termsMax })) >=
    LIMITS.wordFilter.termsMax
  )
    return 'full';
  const now = new Date();
  const doc: ModerationTermDoc = { _id: new ObjectId(), ...term, createdAt: now, updatedAt: now };
  try {
    await store.moderation_terms.insertOne(doc);
    return doc;
  } catch (err) {
    if (isDuplicateKey(err)) return 'taken';
    throw err;
  }
}

/** Removes a term; the removed document (for the action log), or 'not-found'. */
export async function removeTerm(store: Store, termId: ObjectId): Promise<ModerationTermDoc | 'not-found'> {
  return (await store.moderation_terms.findOneAndDelete({ _id: termId })) ?? 'not-found';
}
