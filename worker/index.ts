import { createApp } from './app';
import type { Env } from './platform/env';
import { runSchedule } from './schedules';

export { DbGateway } from '../durable-objects/db-gateway';
// Bound only locally (METRICS_STAND_IN: scripts/dev.ts, the stacks, vitest.config.ts); unbound in production, it costs nothing.
export { MetricsStandIn } from '../durable-objects/metrics-stand-in';
export { RateLimiter } from '../durable-objects/rate-limiter';
export { RiderPresence } from '../durable-objects/rider-presence';
export { VoiceBox } from '../durable-objects/voice-box';
export { SocketShard } from './social/socket-rooms';

const app = createApp();

export default {
  fetch: app.fetch,
  // Awaited, not handed to waitUntil: the runtime cancels waitUntil work 30 s after the handler returns
  // (workerd does it locally too), while a cron invocation itself may run for 15 minutes. A reminder
  // run of 20,000 rows was cut off after its first batch that way.
  async scheduled(controller, env, _ctx) {
    await runSchedule(controller.cron, env);
  },
} satisfies ExportedHandler<Env>;
