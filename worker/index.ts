import { DbGateway as HeldClients } from '../durable-objects/db-gateway';
import { createApp } from './app';
import { liveTokenRows } from './notifications/push-tokens/service';
import { heldQueries } from './platform/db/gateway-queries';
import type { Env } from './platform/env';
import { callerAccount } from './platform/tokens/service';
import { runSchedule } from './schedules';
import { ownConversationId } from './social/conversations/own';
import { sendAhead } from './social/messages/routes';
import { sendToConversation } from './social/messages/send';

/**
 * The jobs the database gateway object runs by name (worker/platform/db/gateway-queries.ts): each a route's reads in
 * one call, answering only the fields it needs. One missing here fails its every call in gateway mode.
 */
const QUERIES = heldQueries([callerAccount, sendToConversation, sendAhead.job, liveTokenRows, ownConversationId]);

/** The database gateway object with the jobs the domains run where the connection is. */
export class DbGateway extends HeldClients {
  protected override readonly heldQueries = QUERIES;
}
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
