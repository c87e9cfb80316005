import { ObjectId } from 'mongodb';

/** The lowest ObjectId: `$gte` it matches every ObjectId and, comparisons being bracketed by type, nothing else. */
const LOWEST_OBJECT_ID = new ObjectId('000000000000000000000000');

/**
 * The `_id` condition of a list paged newest id first (worker/platform/http/pagination.ts): older than the cursor,
 * or, on the first page, any ObjectId. A cursor is an ObjectId and `$lt` matches ObjectIds alone, so a document
 * whose `_id` older code stored as another type could show on the first page and never after it, and would end a
 * page with an id no cursor can hold: lists leave such documents out on every page alike.
 */
export function idPageFilter(cursor: ObjectId | undefined): { _id: { $lt: ObjectId } | { $gte: ObjectId } } {
  return { _id: cursor ? { $lt: cursor } : { $gte: LOWEST_OBJECT_ID } };
}
