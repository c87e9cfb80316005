import { ObjectId } from 'mongodb';
import type { Cleanup } from '../platform/db/personal-data';

/**
 * What deleting an account does to the billing collections. Every collection that can hold something of a
 * rider's has its rule here; a test scans all collections after a deletion and fails on anything that
 * still names the rider.
 */
export const BILLING_PERSONAL_DATA: Cleanup[] = [
  // The ledger row stays so a replayed event is still recognised; only the link to the person goes.
  {
    collection: 'payment_events',
    detach: (userId) => ({ filter: { userId }, update: { $unset: { userId: '' } } }),
  },
  // Paid AI work (worker/billing/ai-credits/): the account goes; the ledger and the usage rows stay for accounting,
  // each under a random id drawn at deletion that nothing links back to the rider (the user id is personal data).
  { collection: 'credit_accounts', remove: (userId) => ({ userId }) },
  {
    collection: 'credit_ledger',
    // A pipeline update: the monthly grant's idempotency key (`monthly:<user id>:<month>`) names the rider too.
    detach: (userId) => {
      const anonymous = new ObjectId();
      return {
        filter: { userId },
        update: [
          {
            $set: {
              userId: anonymous,
              idempotencyKey: {
                $replaceAll: {
                  input: '$idempotencyKey',
                  find: userId.toHexString(),
                  replacement: anonymous.toHexString(),
                },
              },
            },
          },
        ],
      };
    },
  },
  // Grants an admin made stay, without naming the admin.
  {
    collection: 'credit_ledger',
    detach: (userId) => ({ filter: { adminId: userId }, update: { $unset: { adminId: '' } } }),
  },
  {
    collection: 'usage_events',
    detach: (userId) => ({ filter: { userId }, update: { $set: { userId: new ObjectId() } } }),
  },
];
