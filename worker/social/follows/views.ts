import type { UserDoc } from '../../accounts/documents';
import { publicUserView } from '../../accounts/users/views';

/** A listed rider as a public user and, for a signed-in caller, whether they follow them. */
export function listedRiderView(user: Pick<UserDoc, '_id' | 'name' | 'imageUri'>, followed?: Set<string>) {
  return { ...publicUserView(user), ...(followed ? { following: followed.has(user._id.toHexString()) } : {}) };
}
