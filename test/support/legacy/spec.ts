import { ObjectId } from 'mongodb';
import type { FieldKind } from './variants';

/** The riders a generated set is written for: the owner's routes see most documents, the neighbour owns the rest. */
export interface LegacyRiders {
  owner: ObjectId;
  neighbour: ObjectId;
}

export interface BaseContext {
  /** The document's place in its collection: 0 the owner's clean one, 1 the neighbour's, then variants. */
  index: number;
  /** Who this document belongs to: the owner, or the neighbour for every fourth one. */
  rider: ObjectId;
  riders: LegacyRiders;
  /** The `_id` of the `index`-th document of a collection (wrapping round), so references name seeded documents. */
  id(collection: string, index: number): ObjectId;
  /** A rider of its own for documents a unique index allows once per rider (a companion profile). */
  soloRider(index: number): ObjectId;
  /** `now` moved by `ms`: past dates are due to the jobs, future ones are upcoming. */
  at(ms: number): Date;
}

/** One Live collection: a base document in today's shape, and each field's kind for the variants. */
export interface CollectionSpec {
  collection: string;
  /** Dotted paths into the base document (`venue.city`, `stays.0.createdAt`). */
  fields: Record<string, FieldKind>;
  base(ctx: BaseContext): Record<string, unknown>;
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** A 24-hex id from the seed, a name and a number: the same inputs give the same id on every run. */
export function seededId(seed: string, name: string, index: number): ObjectId {
  const hash = (text: string) => {
    let h = 2166136261;
    for (const char of text) h = Math.imul(h ^ char.charCodeAt(0), 16777619) >>> 0;
    return h.toString(16).padStart(8, '0');
  };
  return new ObjectId(`${hash(seed)}${hash(name)}${index.toString(16).padStart(8, '0')}`);
}
