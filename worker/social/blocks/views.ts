import type { UserDoc } from '../../accounts/documents';
import { publicUserView } from '../../accounts/users/views';
import type { UserBlockDoc } from '../documents';

/** A blocked rider as a public user, with when the block was made. */
export function blockedUserView(block: UserBlockDoc, user: Pick<UserDoc, '_id' | 'name' | 'imageUri'>) {
  return { ...publicUserView(user), blockedAt: block.createdAt.toISOString() };
}
