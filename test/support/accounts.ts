import { ObjectId } from 'mongodb';
import type { UserDoc } from '../../worker/accounts/documents';
import { sessionBody } from '../../worker/accounts/sign-in/session-response';
import { Email, Name } from '../../worker/accounts/users/schema';
import { insertUser } from '../../worker/accounts/users/service';
import { createStore } from '../../worker/platform/db/store';
import { hashPassword } from '../../worker/platform/tokens/password';
import { claimsFor, signSessionToken } from '../../worker/platform/tokens/token';
import type { Api } from './worker-api';

export interface TestAccount {
  _id: string;
  token: string;
  email: string;
  password: string;
}

let counter = 0;

type NewAccount = { name?: string; email?: string; password?: string };

// One bcrypt hash per password per test file: each costs ~73 ms of CPU, and most tests only need an account.
const hashes = new Map<string, Promise<string>>();
const hashOf = (password: string) => {
  if (!hashes.has(password)) hashes.set(password, hashPassword(password));
  return hashes.get(password)!;
};

/**
 * A fresh account as registration makes it, stored with the service's own code (the body's normalisation,
 * `insertUser`, the sign-in's token), without the route: for tests about what an account does, not about
 * registering. Registration itself (its analytics event, its limits) is `registerThroughRoute`.
 */
export async function register(api: Api, overrides: NewAccount = {}): Promise<TestAccount> {
  counter += 1;
  const email = Email.parse(overrides.email ?? `rider${counter}-${crypto.randomUUID().slice(0, 6)}@example.com`);
  const password = overrides.password ?? 'correct horse';
  const name = Name.parse(overrides.name ?? `Rider ${counter}`);
  const user = await api.db(async (db) =>
    insertUser(
      createStore(() => db),
      { name, email, emailVerified: false, password: await hashOf(password) },
    ),
  );
  if (typeof user === 'string') throw new Error(`register failed: ${user}`);
  const { token } = await sessionBody(api.env, user);
  return { _id: user._id.toHexString(), token, email, password };
}

/** Registers a fresh account through `POST /api/users`, as a client does. */
export async function registerThroughRoute(api: Api, overrides: NewAccount = {}): Promise<TestAccount> {
  counter += 1;
  const email = overrides.email ?? `rider${counter}-${crypto.randomUUID().slice(0, 6)}@example.com`;
  const password = overrides.password ?? 'correct horse';
  const res = await api.fetch('/api/users', {
    method: 'POST',
    json: { name: overrides.name ?? `Rider ${counter}`, email, password },
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const body = await res.json<{ token: string; user: { _id: string } }>();
  return { _id: body.user._id, token: body.token, email: email.trim().toLowerCase(), password };
}

/**
 * Stores an account directly (no password, so no bcrypt) and signs its Live token with the service's own code:
 * for tests about what a token may do, not about registration.
 */
export async function seedAccount(api: Api, fields: Partial<UserDoc> = {}): Promise<Omit<TestAccount, 'password'>> {
  counter += 1;
  const now = new Date();
  const user: UserDoc = {
    _id: new ObjectId(),
    name: `Seeded rider ${counter}`,
    email: `seeded${counter}-${crypto.randomUUID().slice(0, 6)}@example.com`,
    role: null,
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
  await api.db((db) => db.collection<UserDoc>('users').insertOne(user));
  const token = await signSessionToken(claimsFor(user), api.env.JWT_SECRET!);
  return { _id: user._id.toHexString(), token, email: user.email };
}

/** Registers an account and makes it an admin directly in the store (no API grants the first admin). */
export async function registerAdmin(api: Api): Promise<TestAccount> {
  const account = await register(api);
  await api.db((db) =>
    db.collection('users').updateOne({ _id: new ObjectId(account._id) }, { $set: { role: 'admin' } }),
  );
  return account;
}

export function decodeClaims(token: string): Record<string, unknown> {
  const payload = token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/');
  return JSON.parse(atob(payload));
}
