import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { adminAiCreditRoutes, myAiCreditRoutes } from './ai-credits/routes';
import { analyticsIngestRoutes } from './analytics/ingest-routes';
import { analyticsDashboardPageRoutes, analyticsDashboardRoutes } from './analytics-dashboard/routes';
import type { AppEnv } from './app-env';
import { blockRoutes } from './blocks/routes';
import { blogRoutes } from './blog/routes';
import { categoryRoutes } from './categories/routes';
import { clientHeartbeatRoutes } from './client-heartbeat/routes';
import { commentRoutes } from './comments/routes';
import { companionRoutes } from './companion/routes';
import { conversationRoutes } from './conversations/routes';
import { eventDeskPageRoutes, eventDeskRoutes } from './event-desk/routes';
import { eventRelationshipRoutes, myEventRoutes } from './event-relationships/routes';
import { eventSaveRoutes, mySavedEventRoutes } from './event-saves/routes';
import { eventSubmissionRoutes } from './event-submissions/routes';
import { eventSubscriptionRoutes } from './event-subscriptions/routes';
import { eventRoutes } from './events/routes';
import { adminExperimentRoutes } from './experiments/admin-routes';
import { experimentRoutes } from './experiments/routes';
import { feedRoutes } from './feed/routes';
import { healthRoutes } from './health/routes';
import { ApiError } from './http/errors';
import { onError, onNotFound } from './http/on-error';
import { createRouter } from './http/openapi';
import { adminIngestionRoutes } from './ingestion/routes';
import { LIMITS } from './limits';
import { listingRoutes } from './listings/routes';
import { messageRoutes } from './messages/routes';
import { SECURITY_SCHEMES } from './middleware/auth';
import { database } from './middleware/database';
import { securityHeaders } from './middleware/security-headers';
import { notificationPreferenceRoutes } from './notification-preferences/routes';
import { objectCounterRoutes } from './object-counters/routes';
import { openApiRoutes } from './openapi/routes';
import { adminPushRoutes, pushRoutes } from './push/routes';
import { pushTokenRoutes } from './push-tokens/routes';
import { reactionRoutes } from './reactions/routes';
import { realtimeRoutes } from './realtime/routes';
import { reminderRoutes } from './reminders/routes';
import { adminReportRoutes, reportRoutes } from './reports/routes';
import { adminRetrievalRoutes } from './retrieval/routes';
import { mySavedPostRoutes, savedPostRoutes } from './saved-posts/routes';
import { adminSessionRoutes } from './sessions/admin-routes';
import { checkCurrentPassword } from './sessions/current-password';
import { passwordRoutes } from './sessions/password-routes';
import { sessionRoutes } from './sessions/routes';
import { revokeOtherSessions } from './sessions/service';
import { signInRoutes } from './sign-in/routes';
import { spotListRoutes } from './spot-lists/routes';
import { spotReviewRoutes } from './spot-reviews/routes';
import { spotTrickHistoryRoutes } from './spot-trick-history/routes';
import { spotRoutes } from './spots/routes';
import { stayRoutes } from './stays/routes';
import { subscriptionRoutes } from './subscriptions/routes';
import { trickipediaRoutes } from './trickipedia/routes';
import { trickListRoutes } from './tricklists/routes';
import { trickRoutes } from './tricks/routes';
import { adminUserRoutes } from './users/admin-routes';
import { userRoutes } from './users/routes';
import { SERVICE_VERSION } from './version';
import { adminVersionPolicyRoutes } from './version-policy/admin-routes';
import { versionPolicyRoutes } from './version-policy/routes';
import { voiceRoutes } from './voice/routes';

/** The whole HTTP API, mounted under /api. */
export function createApp() {
  const app = createRouter<AppEnv>();
  app.onError(onError);
  app.notFound(onNotFound);

  // nosniff on every answer; the pages' Content-Security-Policy and Referrer-Policy (worker/http/page-policy.ts).
  app.use('*', securityHeaders());
  app.use(
    '/api/*',
    // Tokens travel in headers, never cookies, so any origin may call; the website and the
    // browser extension read the token from x-auth-token.
    cors({
      origin: '*',
      // x-socket-id: a message send names the sender's own socket, which gets no echo (docs/realtime.md).
      allowHeaders: [
        'content-type',
        'x-auth-token',
        'authorization',
        'x-voice-session',
        'x-socket-id',
        'x-session-mode',
      ],
      exposeHeaders: ['x-auth-token', 'retry-after', 'www-authenticate'],
      maxAge: 86400,
    }),
    bodyLimit({
      maxSize: LIMITS.requestBodyBytes,
      onError: () => {
        throw new ApiError(413, `Request body too large: the limit is ${LIMITS.requestBodyBytes} bytes.`);
      },
    }),
    database(),
  );

  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) {
    app.openAPIRegistry.registerComponent('securitySchemes', name, scheme);
  }
  app.route('/api/health', healthRoutes);
  app.route('/api', signInRoutes);
  app.route('/api/users', userRoutes({ checkCurrentPassword, revokeOtherSessions }));
  app.route('/api/admin', adminUserRoutes);
  app.route('/api/spots', spotRoutes);
  app.route('/api/spots', spotReviewRoutes);
  app.route('/api/spots', spotTrickHistoryRoutes);
  app.route('/api/tricklists', trickListRoutes);
  app.route('/api/tricklists', trickRoutes);
  app.route('/api', subscriptionRoutes);
  app.route('/api/spotlists', spotListRoutes);
  app.route('/api/listings', listingRoutes);
  app.route('/api', stayRoutes);
  app.route('/api/trickipedia', trickipediaRoutes);
  app.route('/api/blog', blogRoutes);
  app.route('/api/categories', categoryRoutes);
  app.route('/api/conversations', conversationRoutes);
  app.route('/api/conversations', messageRoutes);
  app.route('/api/feed', feedRoutes);
  app.route('/api/feed', reactionRoutes);
  app.route('/api/feed', commentRoutes);
  app.route('/api/feed', savedPostRoutes);
  app.route('/api/users', mySavedPostRoutes);
  app.route('/api/users', blockRoutes);
  app.route('/api/reports', reportRoutes);
  app.route('/api/admin', adminReportRoutes);
  app.route('/api/admin', adminIngestionRoutes);
  app.route('/api/admin', adminExperimentRoutes);
  app.route('/api/experiments', experimentRoutes);
  app.route('/api/admin', eventDeskRoutes);
  app.route('/api', companionRoutes);
  app.route('/', realtimeRoutes);
  app.route('/api/events', eventSubmissionRoutes);
  app.route('/api/events', eventRoutes);
  app.route('/api/events', eventSaveRoutes);
  app.route('/api/users', mySavedEventRoutes);
  app.route('/api/events', eventRelationshipRoutes);
  app.route('/api/users', myEventRoutes);
  app.route('/api/event-subscriptions', eventSubscriptionRoutes);
  app.route('/', voiceRoutes);
  app.route('/api', clientHeartbeatRoutes);
  app.route('/api/mobile/version-policy', versionPolicyRoutes);
  app.route('/api/admin', adminVersionPolicyRoutes);
  app.route('/api/analytics', analyticsIngestRoutes);
  app.route('/api/analytics/dashboard', analyticsDashboardRoutes);
  app.route('/api/users', reminderRoutes);
  app.route('/', analyticsDashboardPageRoutes);
  app.route('/', eventDeskPageRoutes);
  app.route('/api/push-tokens', pushTokenRoutes);
  app.route('/api/users', notificationPreferenceRoutes);
  app.route('/api/push', pushRoutes);
  app.route('/api/admin', adminPushRoutes);
  app.route('/api/admin', objectCounterRoutes);
  app.route('/api', sessionRoutes);
  app.route('/api', passwordRoutes);
  app.route('/api/admin', adminSessionRoutes);
  app.route('/api/users', myAiCreditRoutes);
  app.route('/api/admin', adminAiCreditRoutes);
  app.route('/api/admin', adminRetrievalRoutes);
  app.route(
    '/api',
    openApiRoutes(() =>
      app.getOpenAPI31Document({
        openapi: '3.1.0',
        info: {
          title: 'Rider service API',
          version: SERVICE_VERSION,
          description:
            'Backend of the action-sports rider app. JSON errors are `{error, details?}`; the Live access checks answer in plain text. Send the session token as `x-auth-token` (auth and admin checks) or `Authorization: Bearer` (account-or-admin routes), as each route says.',
        },
        servers: [{ url: '/' }],
      }),
    ),
  );
  return app;
}
