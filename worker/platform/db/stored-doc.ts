import type { ObjectId } from 'mongodb';

/** The fields every stored document has. */
export interface StoredDoc {
  _id: ObjectId;
  createdAt: Date;
  updatedAt: Date;
}
