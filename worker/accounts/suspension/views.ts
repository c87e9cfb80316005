import type { ObjectId } from 'mongodb';
import type { Suspension } from '../documents';

/** A suspension just set, as the admin who set it reads it. */
export const suspensionAnswer = (userId: ObjectId, suspension: Required<Suspension>) => ({
  userId: userId.toHexString(),
  until: suspension.until?.toISOString() ?? null,
  reason: suspension.reason,
  by: suspension.by.toHexString(),
  at: suspension.at.toISOString(),
});

/** The push a rider gets when suspended: the reason readable, and when it ends. */
export function suspendedNotice(suspension: Suspension) {
  const until = suspension.until ? `until ${suspension.until.toISOString().slice(0, 10)}` : 'until further notice';
  return {
    title: 'Account suspended',
    body: `Suspended ${until}: ${suspension.reason}`,
    url: '/account',
    kind: 'suspension',
    data: { until: suspension.until?.toISOString() ?? '' },
  };
}

/** The push a rider gets when their suspension is lifted. */
export const liftedNotice = () => ({
  title: 'Suspension lifted',
  body: 'Your account works again.',
  url: '/account',
  kind: 'suspension-lifted',
});
