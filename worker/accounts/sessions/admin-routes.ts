import type { AppEnv } from '../../platform/app-env';
import { createRouter, defineRoute, jsonResponse } from '../../platform/http/openapi';
import { admin } from '../../platform/middleware/admin';
import { LegacyUsage, LegacyUsageQuery } from './schema';
import { legacyUsage } from './service';

const DAY_MS = 86_400_000;

const legacyTokenUsage = defineRoute({
  method: 'get',
  path: '/legacy-token-usage',
  tags: ['sessions'],
  summary: 'Requests per UTC day that presented a legacy token (no expiry, no session), newest day first',
  description: 'Counted by the access checks after each response; days without any read 0. See docs/sessions.md.',
  middleware: [admin()] as const,
  request: { query: LegacyUsageQuery },
  responses: { 200: jsonResponse(LegacyUsage, 'One row per day, today first') },
});

/** The legacy-token sunset figures. Mounted under /api/admin. */
export const adminSessionRoutes = createRouter<AppEnv>().openapi(legacyTokenUsage, async (c) => {
  const { days } = c.req.valid('query');
  const today = Date.now();
  const dates = Array.from({ length: days }, (_, i) => new Date(today - i * DAY_MS).toISOString().slice(0, 10));
  const rows = await legacyUsage(c.var.db, dates[dates.length - 1]!, dates[0]!);
  const counts = new Map(rows.map((row) => [row._id, row.requests]));
  return c.json({ days: dates.map((date) => ({ date, requests: counts.get(date) ?? 0 })) }, 200);
});
