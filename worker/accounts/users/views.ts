import { shownWebUrl } from '../../platform/http/web-url';
import { activeSuspension } from '../../platform/tokens/suspension';
import type { Suspension, UserDoc } from '../documents';
import { addressProved } from './address-proof';

/** A suspension as the rider and admins read it: until when and why; never which admin set it. */
export function suspensionView(suspension: Suspension) {
  return {
    until: suspension.until?.toISOString() ?? null,
    reason: suspension.reason,
    ...(suspension.at ? { at: suspension.at.toISOString() } : {}),
  };
}

/** The account as its owner or an admin sees it. Password hashes never leave the service. */
export function userView(user: Omit<UserDoc, 'password'>, now = new Date()) {
  const imageUri = shownWebUrl(user.imageUri);
  const suspension = activeSuspension(user, now);
  return {
    _id: user._id.toHexString(),
    name: user.name,
    email: user.email,
    emailVerified: addressProved(user),
    ...(imageUri ? { imageUri } : {}),
    role: user.role === 'admin' ? ('admin' as const) : null,
    ...(user.subscription
      ? {
          subscription: {
            plan: user.subscription.plan,
            status: user.subscription.status,
            ...(user.subscription.renewsAt ? { renewsAt: user.subscription.renewsAt.toISOString() } : {}),
          },
        }
      : {}),
    ...(user.isBot !== undefined ? { isBot: user.isBot } : {}),
    ...(user.analyticsExcluded !== undefined ? { analyticsExcluded: user.analyticsExcluded } : {}),
    ...(suspension ? { suspension: suspensionView(suspension) } : {}),
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

export type UserView = ReturnType<typeof userView>;

/** Another rider, as the product decisions define a public user. */
export function publicUserView(user: Pick<UserDoc, '_id' | 'name' | 'imageUri'>) {
  const imageUri = shownWebUrl(user.imageUri);
  return { _id: user._id.toHexString(), name: user.name, ...(imageUri ? { imageUri } : {}) };
}

export type PublicUserView = ReturnType<typeof publicUserView>;
