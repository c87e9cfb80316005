import { z } from '@hono/zod-openapi';

const RouteFigures = z.object({
  method: z.string(),
  route: z.string().describe("the route's pattern, e.g. /api/feed/:postId"),
  requests: z.number().int(),
  p50Ms: z.number().describe('median duration in ms (nearest rank)'),
  p95Ms: z.number().describe('95th percentile duration in ms (nearest rank)'),
  serverErrorShare: z.number().describe('share of the requests answered 5xx, 0..1'),
  clientErrorShare: z.number().describe('share of the requests answered 4xx, 0..1'),
});

export const RequestFiguresReport = z
  .object({
    source: z
      .enum(['local-stand-in', 'analytics-engine'])
      .describe('local-stand-in: the figures below; analytics-engine: none here, read them with the SQL API'),
    note: z.string().describe('where the figures come from, or where to read them'),
    from: z.string().describe('start of the last hour (ISO 8601)'),
    to: z.string(),
    routes: z.array(RouteFigures).describe('per method and route pattern, busiest first; empty in production'),
    perMinute: z
      .array(z.object({ minute: z.string(), requests: z.number().int(), serverErrors: z.number().int() }))
      .describe('every minute of the hour, oldest first; empty in production'),
  })
  .openapi('RequestFiguresReport');
