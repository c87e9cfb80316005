import { createApp } from './app';
import type { Env } from './env';
import { runSchedule } from './schedules';

export { DbGateway } from '../durable-objects/db-gateway';
export { RateLimiter } from '../durable-objects/rate-limiter';
export { RiderPresence } from '../durable-objects/rider-presence';
export { VoiceBox } from '../durable-objects/voice-box';
export { SocketShard } from './realtime/socket-shard';

const app = createApp();

export default {
  fetch: app.fetch,
  scheduled(controller, env, ctx) {
    ctx.waitUntil(runSchedule(controller.cron, env));
  },
} satisfies ExportedHandler<Env>;
