import { type Filter, ObjectId } from 'mongodb';
import type { Collections } from '../db/collections';
import {
  type CarriedDocuments,
  carryDocuments,
  documentsOf,
  gatewayQuery,
  type QueryCall,
  runQueries,
} from '../db/gateway-queries';
import type { Store } from '../db/store';
import { idForms, readArray, readCount, readId, readRecord } from '../db/stored-values';
import type { Env } from '../env';
import { nameRiderInScope } from '../ops/request-scope';
import { signingKeys } from './keys';
import { tokenVersionOf, type VerifiedToken, verifyWithKeys } from './token';

/** The account as the accounts domain stores it: its `users` collection, declared there. */
type UserDoc = Collections['users'];

/** The caller's account as stored now, read, without its password hash: what every access check reads. */
export type CallerAccount = Omit<UserDoc, 'password'>;

/**
 * Reads a stored account into the caller's account: the accounts domain's reader, handed to the access checks
 * where the app is composed (worker/app.ts); undefined when the document cannot be read as an account.
 */
export type AccountReader = (stored: object) => CallerAccount | undefined;

/** What the platform itself reads of an account: who it is and whether its stored role is admin. */
export type AccountIdentity = Pick<CallerAccount, '_id' | 'role'>;

/**
 * The caller's stored account without its password hash, by `_id` in either form older code stored it: the one
 * query the access checks run, as a gateway query so it can travel in one call with the route's first read.
 */
export const callerAccount = gatewayQuery(
  'caller-account',
  true,
  async (store, id: string) => carryDocuments(await findCallerAccount(store, id)),
  (wire: CarriedDocuments) => documentsOf<UserDoc | null>(wire),
);

/** That read itself, for a job judging the account where it reads it (worker/platform/middleware/write-ahead.ts). */
export function findCallerAccount(store: Store, id: string): Promise<UserDoc | null> {
  const filter = { _id: { $in: idForms(new ObjectId(id)) } } as Filter<UserDoc>;
  return store.users.findOne(filter, { projection: { password: 0 } });
}

/**
 * The stored account when it accepts the token, else null: it is gone, its tokens were revoked after this one was
 * signed (its version is behind the account's), or its opt-in session was revoked on its own (`revokedSessions`,
 * stored on the account so no session is read). The fields it checks are read as older code may have left them.
 */
function accepting(user: UserDoc | null, { claims, sessionId }: VerifiedToken): UserDoc | null {
  if (!user || (readCount(user.tokenVersion) ?? 0) !== tokenVersionOf(claims)) return null;
  const revoked = sessionId && readArray(user.revokedSessions).some((entry) => readRecord(entry)?.sid === sessionId);
  return revoked ? null : user;
}

async function acceptingAccount(store: Store, verified: VerifiedToken) {
  const [user] = await runQueries(store, [callerAccount.with(verified.claims._id)]);
  return accepting(user, verified);
}

/**
 * The account a verified token speaks for, as stored now and read by `read`, or null when the token must be
 * refused (accepting) or the account cannot be read at all. Routes read the role, subscription and profile
 * from it instead of again.
 */
export async function readAccountForToken(
  store: Store,
  verified: VerifiedToken,
  read: AccountReader,
): Promise<CallerAccount | null> {
  const [user] = await runQueries(store, [callerAccount.with(verified.claims._id)]);
  return acceptedCaller(user, verified, read);
}

/**
 * The caller's account read from its stored document when it accepts the verified token, else null: one judgement
 * for the Worker's access checks and for a job that checks the caller where the database is (a write sent in the
 * check's own call: worker/platform/middleware/write-ahead.ts).
 */
export function acceptedCaller(
  user: UserDoc | null,
  verified: VerifiedToken,
  read: AccountReader,
): CallerAccount | null {
  const accepted = accepting(user, verified);
  return (accepted && read(accepted)) ?? null;
}

/**
 * readAccountForToken with a route's first read beside it, in one call to the gateway: the read's answer comes
 * back whatever the account's (the caller refuses the token first).
 */
export async function readAccountWith<R>(
  store: Store,
  verified: VerifiedToken,
  read: AccountReader,
  beside: QueryCall<R>,
): Promise<[CallerAccount | null, R]> {
  const [user, answer] = await runQueries(store, [callerAccount.with(verified.claims._id), beside]);
  return [acceptedCaller(user, verified, read), answer];
}

/** Who the account a verified token speaks for is, or null when the token must be refused (acceptingAccount). */
export async function accountForToken(store: Store, verified: VerifiedToken): Promise<AccountIdentity | null> {
  const user = await acceptingAccount(store, verified);
  const _id = readId(user?._id);
  return user && _id ? { _id, role: isAdminAccount(user) ? 'admin' : null } : null;
}

export const isAdminAccount = (account: Pick<UserDoc, 'role'>): boolean => account.role === 'admin';

/** Who is acting on shared content: their id, and whether their stored role is admin now. */
export type Caller = { userId: ObjectId; isAdmin: boolean };

/** The caller of an `auth()` route, from the account the check loaded: the role as stored, never the token's (never-expiring) claim. */
export const callerOf = (account: AccountIdentity): Caller => ({
  userId: account._id,
  isAdmin: isAdminAccount(account),
});

/**
 * The caller behind an optional `x-auth-token` on a public route, or null for the public view:
 * no token, a bad or expired one, or one the account no longer accepts (gone, or revoked).
 */
export async function tokenCaller(env: Env, store: Store, token: string | undefined): Promise<Caller | null> {
  if (!token) return null;
  const verified = await verifyWithKeys(token, signingKeys(env));
  if (!verified || verified === 'expired') return null;
  const account = await accountForToken(store, verified);
  if (!account) return null;
  // The request's log line names the rider, as it does behind the auth check.
  nameRiderInScope(account._id.toHexString());
  return callerOf(account);
}
