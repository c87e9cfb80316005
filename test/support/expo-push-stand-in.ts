import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import type { Db, ObjectId } from 'mongodb';
import { applyIndexes } from '../../worker/data';
import worker from '../../worker/index';
import { createStore, type Store } from '../../worker/platform/db/store';
import type { ExpoScript, RecordedExpoRequest } from './stand-ins/expo-push';
import { type Api, createApi, type TestEnv, uniqueDbName } from './worker-api';

export type { ExpoScript, RecordedExpoRequest } from './stand-ins/expo-push';

/** A fresh Expo push token and its stored document: live (never marked dead), on an iOS device in UTC. */
export function liveExpoToken(userId: ObjectId, now = new Date()) {
  const token = `ExponentPushToken[${crypto.randomUUID().slice(0, 22)}]`;
  const doc = {
    userId,
    token,
    platform: 'ios',
    transport: 'gateway',
    timezone: 'UTC',
    lastSeenAt: now,
    deadAt: null,
    deadReason: null,
    createdAt: now,
    updatedAt: now,
  };
  return { token, doc };
}

/** One Expo message as the stand-in received it. */
export interface SentMessage {
  to: string;
  title: string;
  body: string;
  data: Record<string, string | number | boolean>;
  priority?: string;
  channelId?: string;
  badge?: number;
}

export interface PushTestbed {
  /** The Worker under test, its own database, EXPO_PUSH_URL pointing at this testbed's stand-in. */
  api: Api;
  /** Sets what the stand-in answers, and forgets what it received so far. */
  script(script: ExpoScript): Promise<void>;
  /** Every request the stand-in received since the last script, in order. */
  requests(): Promise<RecordedExpoRequest[]>;
  /** The messages of the send requests it answered 200. */
  sent(): Promise<SentMessage[]>;
  /** Fires a Cron Trigger through the Worker's own scheduled handler and waits for its job. */
  runCron(cron: string): Promise<void>;
  /** Runs `fn` with a Store over this testbed's database (for model-level tests and `deliver`). */
  withStore<T>(fn: (store: Store, db: Db) => Promise<T>): Promise<T>;
}

/**
 * A database and an Expo push project of their own (test/support/stand-ins/expo-push.ts), so push tests in
 * parallel files never see each other's messages.
 * @example
 * const push = pushTestbed('reminders');
 * await push.script({ receiptErrors: { [token]: 'DeviceNotRegistered' } });
 * await push.runCron('*\/15 * * * *');
 */
export function pushTestbed(label: string, overrides: Partial<TestEnv> = {}): PushTestbed {
  const base = createApi(label).env;
  const projectUrl = `${base.STAND_INS_URL}/expo-push/${uniqueDbName(label)}`;
  const api = createApi(label, { EXPO_PUSH_URL: projectUrl, ...overrides });
  let indexed: Promise<unknown> | undefined;
  const requests = async () => {
    const res = await fetch(`${projectUrl}/requests`);
    return res.json<RecordedExpoRequest[]>();
  };
  return {
    api,
    requests,
    async script(script) {
      const res = await fetch(projectUrl, { method: 'PUT', body: JSON.stringify(script) });
      if (res.status !== 204) throw new Error(`Expo stand-in refused the script: ${res.status}`);
    },
    async sent() {
      return (await requests())
        .filter((request) => request.kind === 'send' && request.status === 200)
        .flatMap((request) => request.body as SentMessage[]);
    },
    async runCron(cron) {
      indexed ??= api.db(applyIndexes);
      await indexed;
      const ctx = createExecutionContext();
      await worker.scheduled!(createScheduledController({ cron }), api.env, ctx);
      await waitOnExecutionContext(ctx);
    },
    withStore: (fn) =>
      api.db((db) =>
        fn(
          createStore(() => db),
          db,
        ),
      ),
  };
}
