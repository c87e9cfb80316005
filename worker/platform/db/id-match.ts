import type { ObjectId } from 'mongodb';
import { idForms } from './stored-values';

// Query conditions matching ids in both forms older code stored them in (worker/platform/db/stored-values.ts idForms):
// typed as conditions on an ObjectId field, since a collection's filter types know only the shape the service writes.

/** Matches a stored id naming any of `ids`, as an ObjectId or its hex string; one index serves the `$in`. */
export function anyIdOf(...ids: ObjectId[]): { $in: ObjectId[] } {
  return { $in: ids.flatMap((id) => idForms(id)) as ObjectId[] };
}

/** Matches a stored id naming none of `ids`, in either form. */
export function noIdOf(...ids: ObjectId[]): { $nin: ObjectId[] } {
  return { $nin: ids.flatMap((id) => idForms(id)) as ObjectId[] };
}
