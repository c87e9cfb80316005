/**
 * Every named event line the service writes (`logEvent`, worker/platform/ops/log-line.ts), with its level and when
 * it is written; docs/operations.md lists the same names (test/node/platform/log-event.test.ts holds it to them).
 * The fields of each are typed below: ids, counts, status codes, setting names and `describeError()` texts, never
 * a body, a token, an email, a message's text or a prompt.
 */
export interface LogEventFields {
  'analytics.server-event.failed': { name: string; userId: string; error: string };
  'retrieval.index.failed': { document: string; error: string };
  'health.db-ping.failed': { error: string };
  'store.document.unreadable': { collection: string; id: string; reason: string };
  'tokens.legacy-usage.failed': { days: number; requests: number; error: string };
  'push.viewers.unknown': { conversationId: string; error: string };
  'push.message.failed': { messageId: string; conversationId: string; error: string };
  'push.web.redirected': { origin: string; serviceStatus: number };
  'push.web.hosts-unusable': { problem: string };
  'push.web.vapid-unusable': { problem: string; subscriptions: number };
  'push.expo.send.failed': { messages: number; error: string };
  'push.receipt.failed': { ticketId: string; code: string | null };
  'push.moderation.failed': { targetType: string; targetId: string; error: string };
  'moderation.queue.aged': { targetType: string; targetId: string; riders: number; ageHours: number };
  'ingestion.event.failed': { dedupeKey: string; code: number | null; error: string };
  'ingestion.item.skipped': { source: string; sourceId: string; reason: string };
  'ingestion.event.skipped': { source: string; dedupeKey: string };
  'ingestion.source.failed': { source: string; error: string };
  'ai-credits.reconciliation.mismatch': {
    day: string;
    ledgerCredits: number;
    usageCredits: number;
    difference: number;
  };
  'payments.event.unknown-account': { paymentEventId: string; type: string };
  'accounts.email.changed-by-admin': { adminId: string; userId: string };
  'accounts.account.taken-over': { userId: string };
  'accounts.email.ambiguous': { userIds: string };
  'accounts.export.started-by-admin': { adminId: string; userId: string; exportId: string; created: boolean };
  'accounts.export.fetched-by-admin': { adminId: string; userId: string; exportId: string };
  'accounts.export.build-failed': { exportId: string; attempt: number; next: string; error: string };
  'accounts.export.push-failed': { exportId: string; error: string };
  'sign-in.key-set.unavailable': { provider: string; error: string };
  'voice.box.unreachable': { error: string };
  'companion.speech.not-settled': { messageId: string; error: string };
  'companion.speak.refused': { status: number };
  'companion.speak.failed': { error: string };
  'companion.tool.failed': { tool: string; error: string };
  'moderation.check.deferred': { targetType: string; targetId: string; error: string };
  'moderation.check.abandoned': { targetType: string; targetId: string; attempts: number; error: string };
  'moderation.content.held': { targetType: string; targetId: string; categories: string };
}

export type LogEventName = keyof LogEventFields;
export type EventLevel = 'info' | 'warn' | 'error';

export const LOG_EVENTS = {
  'analytics.server-event.failed': {
    level: 'error',
    when: 'an action the API performed was stored, its analytics event was not (the dashboard undercounts it)',
  },
  'retrieval.index.failed': {
    level: 'warn',
    when: 'a document was written but not embedded or unindexed; the backfill mends it',
  },
  'health.db-ping.failed': { level: 'error', when: '`GET /api/health` found the database not answering' },
  'store.document.unreadable': {
    level: 'warn',
    when: 'a stored document could not be read at all and was left out of a list or a job (`npm run db:doctor` lists such documents)',
  },
  'tokens.legacy-usage.failed': {
    level: 'error',
    when: "a batch of legacy-token request counts was not stored (docs/sessions.md's retirement figure)",
  },
  'push.viewers.unknown': {
    level: 'error',
    when: 'the presence directory could not say who has a conversation on screen, so every participant is pushed to',
  },
  'push.message.failed': { level: 'error', when: 'a message was stored but its pushes were not sent' },
  'push.web.redirected': {
    level: 'warn',
    when: 'a web push service answered a redirect, which is never followed: the push is not delivered',
  },
  'push.web.hosts-unusable': { level: 'warn', when: '`WEB_PUSH_HOSTS` cannot be read: no web push is sent' },
  'push.web.vapid-unusable': {
    level: 'warn',
    when: 'the VAPID settings are missing or unusable: web push subscriptions are skipped, once a run',
  },
  'push.expo.send.failed': { level: 'error', when: 'a chunk of Expo pushes was not accepted by `EXPO_PUSH_URL`' },
  'push.receipt.failed': {
    level: 'warn',
    when: "Expo's receipt for a ticket is an error (stored on its delivery-log row; DeviceNotRegistered kills the token)",
  },
  'push.moderation.failed': {
    level: 'error',
    when: "content was removed from the queue but its author's push was not sent (they can still read why)",
  },
  'moderation.queue.aged': {
    level: 'warn',
    when: 'a queue item has waited over 20 hours for an admin (App Review asks for 24); one line per item and run',
  },
  'ingestion.event.failed': {
    level: 'error',
    when: 'the database refused one event of an ingestion batch, or its change history or matching failed',
  },
  'ingestion.item.skipped': { level: 'warn', when: "a source's item could not be read and was skipped" },
  'ingestion.event.skipped': {
    level: 'warn',
    when: 'a listing was left alone because the stored event it would write to could not be read',
  },
  'ingestion.source.failed': { level: 'error', when: "a source's run failed and wrote nothing" },
  'ai-credits.reconciliation.mismatch': {
    level: 'error',
    when: "a day's settled credits and charged usage differ: a bug in worker/billing/ai-credits/",
  },
  'payments.event.unknown-account': {
    level: 'warn',
    when: "a signed payment event names no account (answered 200, `outcome: 'unknown-user'`)",
  },
  'accounts.email.changed-by-admin': { level: 'info', when: "an admin moved another rider's email address" },
  'accounts.account.taken-over': {
    level: 'warn',
    when: 'a provider proved an unproved address: its account lost its password and sessions to the owner',
  },
  'accounts.email.ambiguous': {
    level: 'warn',
    when: 'an address matched several accounts older code stored in other case or with spaces: none signs in by it until an operator settles them (migrations-notes/legacy-documents-accounts.md)',
  },
  'accounts.export.started-by-admin': {
    level: 'info',
    when: "an admin asked for a rider's data export (answering a request by mail); `created: false` when the day's export already existed",
  },
  'accounts.export.fetched-by-admin': {
    level: 'info',
    when: "an admin took a download link to a rider's data export",
  },
  'accounts.export.build-failed': {
    level: 'error',
    when: "a data export's build failed; `next` says whether it is tried again (`retry`) or the export is `failed`",
  },
  'accounts.export.push-failed': {
    level: 'warn',
    when: "a data export is ready but the push telling its rider could not be sent (the rider's list shows it ready)",
  },
  'sign-in.key-set.unavailable': {
    level: 'error',
    when: "Google's or Apple's key set could not be fetched (the sign-in is answered 502)",
  },
  'voice.box.unreachable': { level: 'error', when: 'a voice WebSocket could not be handed to the voice box' },
  'companion.speech.not-settled': {
    level: 'error',
    when: "a paid reply's speech was neither settled nor refunded; the reservation sweep releases it",
  },
  'companion.speak.refused': { level: 'warn', when: 'the voice box answered a speak request with an error status' },
  'companion.speak.failed': { level: 'warn', when: 'a speak request to the voice box failed or timed out' },
  'companion.tool.failed': { level: 'warn', when: 'a companion tool threw; the model is told and answers without it' },
  'moderation.check.deferred': {
    level: 'warn',
    when: 'the moderation model did not answer for a post, comment or photo (timeout, 5xx, network): it was published and queued for a later check',
  },
  'moderation.check.abandoned': {
    level: 'error',
    when: 'a later check got no answer from the moderation model after `LIMITS.moderation.checkMaxAttempts` tries: the content stays published unchecked',
  },
  'moderation.content.held': {
    level: 'info',
    when: 'the moderation model flagged a post, comment or photo: held for review, shown to its author only, on the queue',
  },
} as const satisfies Record<LogEventName, { level: EventLevel; when: string }>;
