import { ObjectId } from 'mongodb';
import type { Api } from './worker-api';

export interface TestAccount {
  _id: string;
  token: string;
  email: string;
  password: string;
}

let counter = 0;

/** Registers a fresh account through the API. */
export async function register(
  api: Api,
  overrides: { name?: string; email?: string; password?: string } = {},
): Promise<TestAccount> {
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
