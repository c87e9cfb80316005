// Variant assignment (docs/experiments.md, "Assignment"): a pure function of the experiment key, its weights and
// the unit id, so every request, device and server instance computes the same variant with nothing stored.

const encoder = new TextEncoder();

/**
 * MurmurHash3 x86 32-bit of the UTF-8 bytes of `text` (Austin Appleby's reference algorithm). Chosen over a
 * cryptographic hash because it is synchronous, small and well mixed in every bit, which is all bucketing needs.
 */
export function murmur3(text: string, seed = 0): number {
  const bytes = encoder.encode(text);
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  let h = seed >>> 0;
  const blocks = bytes.length - (bytes.length % 4);
  for (let i = 0; i < blocks; i += 4) {
    let k = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  let k = 0;
  const tail = bytes.length % 4;
  if (tail === 3) k ^= bytes[blocks + 2]! << 16;
  if (tail >= 2) k ^= bytes[blocks + 1]! << 8;
  if (tail >= 1) {
    k ^= bytes[blocks]!;
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
  }
  h ^= bytes.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The unit's bucket in 0..99 for one experiment: the key is hashed in, so experiments are independent of each other. */
export function bucketOf(experimentKey: string, unitId: string): number {
  return murmur3(`${experimentKey}:${unitId}`) % 100;
}

export interface WeightedVariant {
  key: string;
  /** Whole percent; an experiment's weights sum to 100. */
  weight: number;
}

/** The variant whose cumulative weight range holds the unit's bucket (control first: buckets 0..weight−1). */
export function variantFor(experimentKey: string, variants: readonly WeightedVariant[], unitId: string): string {
  const bucket = bucketOf(experimentKey, unitId);
  let upTo = 0;
  for (const variant of variants) {
    upTo += variant.weight;
    if (bucket < upTo) return variant.key;
  }
  // Unreachable for weights summing to 100; the last variant keeps a bad definition from answering nothing.
  return variants.at(-1)!.key;
}
