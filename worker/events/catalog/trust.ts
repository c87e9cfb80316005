import { DEFAULT_SOURCE_TRUST } from './vocabulary';

// Which listing's content an event keeps when two sources disagree.

export interface Claim {
  source: string | null | undefined;
  sourceTrust: number | null | undefined;
}

const trustOf = (claim: Claim) =>
  typeof claim.sourceTrust === 'number' && Number.isFinite(claim.sourceTrust)
    ? claim.sourceTrust
    : DEFAULT_SOURCE_TRUST;

/**
 * True when `incoming` replaces the stored content: the same source refreshing its own listing,
 * or a source trusted strictly more. On a tie the stored content stays, so two equally trusted
 * sources never flip an event back and forth on alternate runs.
 */
export function incomingWins(stored: Claim, incoming: Claim): boolean {
  if (stored.source && stored.source === incoming.source) return true;
  return trustOf(incoming) > trustOf(stored);
}

/** The same rule as a filter on the stored event, for conditional bulk writes (worker/events/ingestion/bulk-writer.ts). */
export function storedLosesTo(incoming: Claim) {
  const trust = trustOf(incoming);
  return {
    $or: [
      { source: incoming.source },
      { sourceTrust: { $lt: trust } },
      // A stored event without a trust counts as the default.
      ...(trust > DEFAULT_SOURCE_TRUST ? [{ sourceTrust: null }] : []),
    ],
  };
}
