import type { SessionDoc } from '../documents';

/** A session as its owner sees it: never a token or hash. */
export const sessionView = (session: Omit<SessionDoc, 'tokenHash' | 'familyId'>, currentId: string | undefined) => ({
  _id: session._id.toHexString(),
  device: session.device,
  createdAt: session.createdAt.toISOString(),
  lastUsedAt: session.lastUsedAt.toISOString(),
  expiresAt: session.expiresAt.toISOString(),
  current: session._id.toHexString() === currentId,
});
