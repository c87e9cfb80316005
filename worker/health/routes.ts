import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { describe } from '../openapi/describe';
import { SERVICE_VERSION } from '../version';
import { Health } from './schema';

export const healthRoutes = new Hono<AppEnv>().get(
  '/',
  describe({
    summary: 'Liveness and database reachability',
    tags: ['meta'],
    responses: {
      200: { description: 'Service and database up', schema: Health },
      503: { description: 'Database unreachable (same body, db "down")', schema: Health },
    },
  }),
  async (c) => {
    let up = false;
    try {
      await c.var.db.db.command({ ping: 1 });
      up = true;
    } catch (err) {
      console.error(`health: database ping failed: ${(err as Error).message}`);
    }
    return c.json({ ok: up, db: up ? 'up' : 'down', version: SERVICE_VERSION }, up ? 200 : 503);
  },
);
