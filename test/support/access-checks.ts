import { type JWTPayload, SignJWT } from 'jose';
import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { decodeClaims, register, registerAdmin, seedAccount, type TestAccount } from './accounts';
import type { Api } from './worker-api';

/**
 * How to test a new resource's access checks: give each protected route one line, in the
 * resource's own test file. The helper runs every row of the spec's "Access checks (Live)"
 * table that applies to the route's check (no token, wrong header, bad or forged tokens, a
 * regular account on an admin route, another account), registering the accounts each row
 * needs. Each `:param` in the path is filled with the id of the account the row targets.
 * @example
 * const api = createApi('spotlists');
 * describeAccessChecks(api, [
 *   { method: 'POST', path: '/api/spotlists', check: 'auth', json: { name: 'Parks' } },
 *   { method: 'DELETE', path: '/api/users/:id', check: 'accountOrAdmin' },
 * ]);
 */
export function describeAccessChecks(api: Api, routes: ProtectedRoute[]): void {
  for (const route of routes) {
    describe(`${route.method} ${route.path}`, () => {
      for (const row of ROWS) {
        const outcome = row.outcome[route.check];
        if (!outcome) continue;
        const expected = outcome === 'passes' ? 'passes the check' : `${outcome.status} "${outcome.text}"`;
        it(`${row.rule} → ${expected}`, () => runRow(api, route, row, outcome));
      }
    });
  }
}

export type AccessCheck = 'auth' | 'admin' | 'accountOrAdmin';

export interface ProtectedRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** As the route is declared, e.g. `/api/users/:id`. */
  path: string;
  check: AccessCheck;
  /** Sent with every row; the rows that pass the check reach the handler with it. */
  json?: unknown;
}

// The interface spec's exact texts, not imported from worker/platform/tokens/access-text.ts: a changed constant must fail here.
const TEXT = {
  noToken: 'Access denied. No token provided.',
  denied: 'Access denied.',
  adminOnly: 'Access denied. Admin only.',
  invalidToken: 'Invalid token.',
} as const;

type Refusal = { status: 400 | 401 | 403; text: string };
type Outcome = Refusal | 'passes';

interface Presented {
  token?: string;
  /** Sends the token in the header this check does not read. */
  wrongHeader?: true;
  /** The account whose token is sent, when there is one. */
  caller?: Pick<TestAccount, '_id'>;
  /** The account the path's `:param` names; a fresh regular account when left out. */
  target?: Pick<TestAccount, '_id'>;
}

interface Row {
  /** What the caller presents, as the test name reads. */
  rule: string;
  present(api: Api): Promise<Presented>;
  /** What the spec says each check answers; a check without an entry skips the row. */
  outcome: Partial<Record<AccessCheck, Outcome>>;
}

const refused = (status: Refusal['status'], text: string): Refusal => ({ status, text });
const invalidEverywhere = {
  auth: refused(400, TEXT.invalidToken),
  admin: refused(400, TEXT.invalidToken),
  accountOrAdmin: refused(400, TEXT.invalidToken),
};

const ROWS: Row[] = [
  {
    rule: 'no token',
    present: async () => ({}),
    outcome: {
      auth: refused(401, TEXT.noToken),
      admin: refused(401, TEXT.denied),
      accountOrAdmin: refused(401, TEXT.noToken),
    },
  },
  {
    // An admin's own valid token: a check that read the wrong header would let it through.
    rule: "an admin's token in the header this check does not read",
    present: async (api) => {
      const admin = await registerAdmin(api);
      return { token: admin.token, wrongHeader: true, caller: admin, target: admin };
    },
    outcome: {
      auth: refused(401, TEXT.noToken),
      admin: refused(401, TEXT.denied),
      accountOrAdmin: refused(401, TEXT.noToken),
    },
  },
  {
    rule: 'a malformed token',
    present: async () => ({ token: 'not-a-jwt' }),
    outcome: invalidEverywhere,
  },
  {
    // A real admin's claims, so only the signature is wrong.
    rule: "an admin's claims signed with another secret",
    present: async (api) => {
      const admin = await registerAdmin(api);
      return { token: await signed(decodeClaims(admin.token), 'another secret'), caller: admin, target: admin };
    },
    outcome: invalidEverywhere,
  },
  {
    rule: "an admin's claims with alg none",
    present: async (api) => {
      const admin = await registerAdmin(api);
      return { token: unsigned(decodeClaims(admin.token)), caller: admin, target: admin };
    },
    outcome: invalidEverywhere,
  },
  {
    // On its own id, so an admin route such as PATCH /api/admin/users/:id cannot grant itself a role.
    rule: 'a regular account',
    present: async (api) => {
      const account = await register(api);
      return { token: account.token, caller: account, target: account };
    },
    outcome: { auth: 'passes', admin: refused(403, TEXT.adminOnly) },
  },
  {
    // Tokens never expire, so the role must come from the store, never from the claim.
    rule: 'a correctly signed token claiming admin for an account stored as regular',
    present: async (api) => {
      const account = await register(api);
      const claims = { ...decodeClaims(account.token), role: 'admin' };
      return { token: await signed(claims, api.env.JWT_SECRET!), caller: account };
    },
    outcome: { admin: refused(403, TEXT.adminOnly), accountOrAdmin: refused(403, TEXT.denied) },
  },
  {
    // Tokens never expire, so a deleted account's token must be refused by the check itself, never act for nobody.
    rule: 'the token of a deleted account',
    present: async (api) => {
      const account = await seedAccount(api);
      await api.db((db) => db.collection('users').deleteOne({ _id: new ObjectId(account._id) }));
      return { token: account.token, caller: account, target: account };
    },
    outcome: invalidEverywhere,
  },
  {
    // An identity provider took the account over (docs/accounts.md): every token signed before is refused.
    rule: 'a token signed before the account revoked its tokens',
    present: async (api) => {
      const account = await seedAccount(api);
      await api.db((db) =>
        db.collection('users').updateOne({ _id: new ObjectId(account._id) }, { $set: { tokenVersion: 1 } }),
      );
      return { token: account.token, caller: account, target: account };
    },
    outcome: invalidEverywhere,
  },
  {
    rule: 'another regular account',
    present: async (api) => {
      const account = await register(api);
      return { token: account.token, caller: account };
    },
    outcome: { accountOrAdmin: refused(403, TEXT.denied) },
  },
  {
    rule: 'the account itself',
    present: async (api) => {
      const account = await register(api);
      return { token: account.token, caller: account, target: account };
    },
    outcome: { accountOrAdmin: 'passes' },
  },
  {
    // On a fresh target account, so account routes prove an admin passes on anyone's.
    rule: 'an admin',
    present: async (api) => {
      const admin = await registerAdmin(api);
      return { token: admin.token, caller: admin };
    },
    outcome: { admin: 'passes', accountOrAdmin: 'passes' },
  },
];

const READS: Record<AccessCheck, 'x-auth-token' | 'authorization'> = {
  auth: 'x-auth-token',
  admin: 'x-auth-token',
  accountOrAdmin: 'authorization',
};

function headersFor(check: AccessCheck, { token, wrongHeader }: Presented): Record<string, string> {
  if (token === undefined) return {};
  const reads = READS[check];
  const header = wrongHeader ? (reads === 'authorization' ? 'x-auth-token' : 'authorization') : reads;
  return { [header]: header === 'authorization' ? `Bearer ${token}` : token };
}

async function runRow(api: Api, route: ProtectedRoute, row: Row, outcome: Outcome): Promise<void> {
  const presented = await row.present(api);
  const target = presented.target ?? (route.path.includes(':') ? await register(api) : undefined);
  const path = target ? route.path.replace(/:\w+/g, target._id) : route.path;
  const watched = [presented.caller, target].flatMap((account) => (account ? [account._id] : []));
  const before = await storedUsers(api, watched);

  const res = await api.fetch(path, {
    method: route.method,
    headers: headersFor(route.check, presented),
    json: route.json,
  });
  const answer = { status: res.status, type: res.headers.get('content-type'), body: await res.text() };

  if (outcome === 'passes') {
    // The handler may still refuse for its own reasons (a JSON 403 "not yours", a 404); only the
    // check's plain-text refusals are ruled out.
    const plainText = answer.type?.startsWith('text/plain') ?? false;
    expect(
      plainText && (Object.values(TEXT) as string[]).includes(answer.body),
      `${answer.status} ${answer.body}`,
    ).toBe(false);
    expect(answer.status, answer.body).not.toBe(401);
    return;
  }
  expect(answer).toEqual({ status: outcome.status, type: expect.stringContaining('text/plain'), body: outcome.text });
  // A refusal must come before the handler: the caller's and the target's stored accounts are untouched.
  expect(await storedUsers(api, watched)).toEqual(before);
}

function storedUsers(api: Api, ids: string[]) {
  return api.db((db) =>
    db
      .collection('users')
      .find({ _id: { $in: ids.map((id) => new ObjectId(id)) } })
      .sort({ _id: 1 })
      .toArray(),
  );
}

const encoder = new TextEncoder();

function signed(claims: JWTPayload, secret: string): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(encoder.encode(secret));
}

function unsigned(claims: JWTPayload): string {
  const part = (value: object) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}
