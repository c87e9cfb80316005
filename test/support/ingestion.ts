import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import type { Db, Document } from 'mongodb';
import { applyIndexes } from '../../worker/data';
import worker from '../../worker/index';
import { SCHEDULES } from '../../worker/schedules';
import type { Scenario } from './stand-ins/event-sources';
import { type Api, createApi, uniqueDbName } from './worker-api';

export interface IngestionTestbed {
  api: Api;
  /** Switches what this testbed's two upstream sources answer (test/support/stand-ins/event-sources.ts). */
  sources(scenarios: { one?: Scenario; two?: Scenario }): Promise<void>;
  /** Fires the ingestion Cron Trigger through the Worker's own scheduled handler and waits for it. */
  runCron(): Promise<void>;
  events(): Promise<Document[]>;
  runs(): Promise<Document[]>;
}

const INGESTION_CRON = SCHEDULES.find((schedule) => schedule.job === 'event ingestion')!.cron;

/** A database and a pair of upstream sources of its own, so tests never share state. */
export function ingestionTestbed(label: string): IngestionTestbed {
  const base = createApi(label).env;
  const sourcesUrl = `${base.STAND_INS_URL}/event-sources/${uniqueDbName(label)}`;
  const api = createApi(label, {
    EVENT_SOURCE_ONE_URL: `${sourcesUrl}/one`,
    EVENT_SOURCE_TWO_URL: `${sourcesUrl}/two`,
  });
  const indexed = api.db(applyIndexes);
  const all = (name: string) => (db: Db) => db.collection(name).find().sort({ _id: 1 }).toArray();
  return {
    api,
    async sources(scenarios) {
      const res = await fetch(sourcesUrl, { method: 'PUT', body: JSON.stringify(scenarios) });
      if (res.status !== 204) throw new Error(`stand-in refused the switch: ${res.status}`);
    },
    async runCron() {
      await indexed;
      const ctx = createExecutionContext();
      await worker.scheduled!(createScheduledController({ cron: INGESTION_CRON }), api.env, ctx);
      await waitOnExecutionContext(ctx);
    },
    events: () => api.db(all('events')),
    runs: () => api.db(all('ingestion_runs')),
  };
}
