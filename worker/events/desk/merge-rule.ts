import type { EventSourceRef } from '../documents';

// What a merge keeps of two events' source listings. Pure.

const keyOf = (ref: Pick<EventSourceRef, 'sourceId' | 'externalId'>) => `${ref.sourceId}\u0000${ref.externalId ?? ''}`;

/**
 * The survivor's listings, then each of the merged event's listings the survivor does not hold
 * (one entry per source listing: the same sourceId and externalId is the same listing, and the
 * survivor's entry stays).
 */
export function combinedSourceRefs(survivor: EventSourceRef[], merged: EventSourceRef[]): EventSourceRef[] {
  const held = new Set(survivor.map(keyOf));
  const added: EventSourceRef[] = [];
  for (const ref of merged) {
    if (held.has(keyOf(ref))) continue;
    held.add(keyOf(ref));
    added.push(ref);
  }
  return [...survivor, ...added];
}
