import type { TestAccount } from './accounts';
import type { Api } from './worker-api';

/** Calls a route with the account's token in `x-auth-token` (the auth and admin checks' header). */
export function call(
  api: Api,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  options: { as?: TestAccount; json?: unknown } = {},
): Promise<Response> {
  return api.fetch(path, {
    method,
    headers: options.as ? { 'x-auth-token': options.as.token } : {},
    ...(options.json !== undefined ? { json: options.json } : {}),
  });
}

/** The fields a 400 names, in order. */
export async function refusedFields(res: Response): Promise<string[]> {
  const body = await res.json<{ details?: { field: string }[] }>();
  return (body.details ?? []).map((detail) => detail.field);
}

/** Creates a category as the admin and returns its JSON. */
export async function createCategory(
  api: Api,
  admin: TestAccount,
  fields: { name: string; slug?: string; sport?: string },
): Promise<{ _id: string; slug: string; entryCount: number; updatedAt: string }> {
  const res = await call(api, 'POST', '/api/categories', { as: admin, json: fields });
  if (res.status !== 201) throw new Error(`category not created: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Every item of a paged list, following `nextCursor` with pages of `limit`. */
export async function everyPage<T>(api: Api, path: string, limit: number, as?: TestAccount): Promise<T[][]> {
  const pages: T[][] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const res = await call(api, 'GET', `${path}${separator}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { as });
    if (res.status !== 200) throw new Error(`page refused: ${res.status} ${await res.text()}`);
    const page = await res.json<{ items: T[]; nextCursor: string | null }>();
    pages.push(page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return pages;
}
