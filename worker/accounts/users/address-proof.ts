import type { UserDoc } from '../documents';

/**
 * Whether the account's address is proved to be its owner's. Accounts stored before `emailVerified` existed
 * count as proved only when an identity provider is linked (migrations-notes/email-verified.md).
 */
export const addressProved = (user: Pick<UserDoc, 'emailVerified' | 'appleUserId' | 'googleUserId'>): boolean =>
  user.emailVerified ?? Boolean(user.appleUserId || user.googleUserId);
