import type { UserDoc } from '../../accounts/documents';
import { publicUserView } from '../../accounts/users/views';
import type { Block } from '../stored-moderation';

/** A blocked rider as a public user, with when the block was made. */
export function blockedUserView(block: Block, user: Pick<UserDoc, '_id' | 'name' | 'imageUri'>) {
  return { ...publicUserView(user), blockedAt: block.createdAt.toISOString() };
}
