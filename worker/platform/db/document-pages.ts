import { type Collection, type Document, type Filter, ObjectId } from 'mongodb';

/** The lowest ObjectId: `$gte` it matches every ObjectId and, comparisons being bracketed by type, nothing else (so `$not` it, every other `_id`). */
const LOWEST_OBJECT_ID = new ObjectId('000000000000000000000000');

/**
 * Every document a filter selects, a page at a time, however many: for a job that must see them all without holding
 * them all (a rider's export). Each page is a query of its own, so it works the same over the gateway (whose cursors
 * read everything in one reply) and holds no cursor open between pages. A selection of less than a page is one
 * query; a larger one pages its ObjectId `_id`s by the last one seen, then the `_id`s older code stored as another
 * type (strings, numbers), which are few, by position.
 */
export async function* documentPages(
  collection: Collection<Document>,
  filter: Filter<Document>,
  options: { pageSize: number; projection?: Document },
): AsyncGenerator<Document[]> {
  const { pageSize, projection } = options;
  const find = (where: Filter<Document>, skip = 0) =>
    collection
      .find(
        { $and: [filter, where] },
        { ...(projection ? { projection } : {}), sort: { _id: 1 }, skip, limit: pageSize },
      )
      .toArray();
  // Most of a rider's collections hold less than a page: one query with no condition on `_id` reads them whole.
  const first = await find({});
  if (first.length < pageSize) {
    if (first.length > 0) yield first;
    return;
  }
  let next: Filter<Document> = { _id: { $gte: LOWEST_OBJECT_ID } };
  for (;;) {
    const page = await find(next);
    if (page.length > 0) yield page;
    if (page.length < pageSize) break;
    next = { _id: { $gt: page[page.length - 1]!._id } };
  }
  for (let skip = 0; ; skip += pageSize) {
    const page = await find({ _id: { $not: { $gte: LOWEST_OBJECT_ID } } }, skip);
    if (page.length > 0) yield page;
    if (page.length < pageSize) break;
  }
}
