import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { type Document, ObjectId } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyIndexes } from '../../../worker/data';
import worker from '../../../worker/index';
import { SCHEDULES } from '../../../worker/schedules';
import { seedAccount } from '../../support/accounts';
import { companionApi } from '../../support/companion';
import { LEGACY_DELETES } from '../../support/legacy/deletes';
import {
  type Caller,
  inBatches,
  type OperationsDocument,
  type PlannedCall,
  plannedGets,
} from '../../support/legacy/route-calls';
import {
  type CallOutcome,
  contractReport,
  errorsByRequest,
  makeCall,
  serverErrorReport,
} from '../../support/legacy/route-outcomes';
import { LEGACY_EDITS, type LegacyWrite } from '../../support/legacy/writes';
import { applyVariant, type LegacySet, legacyDocuments, seedLegacyDocuments } from '../../support/legacy-documents';
import { captureLogLines, eventLines } from '../../support/log-lines';
import type { ApiDocument } from '../../support/response-contract';
import { vapidPair } from '../../support/web-push-stand-in';
import { apiDocument, type TestEnv, uniqueDbName } from '../../support/worker-api';

// The Worker over a database as the replaced service left it: documents of every Live collection written
// without a schema (test/support/legacy-documents.ts). Seeded once; the sweeps run with bounded concurrency.
const sources = `${(env as TestEnv).STAND_INS_URL}/event-sources/${uniqueDbName('legacy')}`;
const vapid = await vapidPair();
const { api } = companionApi('legacy-documents', {
  EVENT_SOURCE_ONE_URL: `${sources}/one`,
  EVENT_SOURCE_TWO_URL: `${sources}/two`,
  VAPID_PUBLIC_KEY: vapid.publicKey,
  VAPID_PRIVATE_KEY: vapid.privateKey,
  VAPID_SUBJECT: 'mailto:push@example.com',
});

const CONCURRENCY = 6;

let set: LegacySet;
let refused: string[];
let doc: ApiDocument;
const callers: Record<'owner' | 'other' | 'admin' | 'anonymous', Caller> = {
  owner: { name: 'owner' },
  other: { name: 'other rider' },
  admin: { name: 'admin' },
  anonymous: { name: 'anonymous' },
};
/** Tokens of the riders who own one companion profile each, by id. */
const riderTokens = new Map<string, string>();
let ownerId: ObjectId;

async function runCron(cron: string) {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ cron }), api.env, ctx);
  await waitOnExecutionContext(ctx);
}

const ingestionCron = SCHEDULES.find((schedule) => schedule.job === 'event ingestion')!.cron;

beforeAll(async () => {
  await api.db(applyIndexes);
  // The sources' events as ingestion stores them, then turned legacy one field each: the next run meets them.
  await captureLogLines(() => runCron(ingestionCron));
  const ingested = await api.db((db) => db.collection('events').find().toArray());
  await api.db((db) =>
    Promise.all(
      ingested.map((event, n) => {
        applyVariant('events', event, n + 3);
        // A variant a unique index refuses (a second event without a slug) leaves that event as it was.
        return db
          .collection('events')
          .replaceOne({ _id: event._id }, event)
          .catch(() => undefined);
      }),
    ),
  );
  // The riders whose clean reminders and jobs the crons must send keep no quiet hours (start = end), so the run
  // sends them at whatever hour the suite runs instead of deferring them past the default 21:00–09:00.
  const awake = { notificationPreferences: { quietHours: { start: '00:00', end: '00:00' } } };
  const [owner, other, admin, neighbour] = await Promise.all([
    seedAccount(api, awake),
    seedAccount(api),
    seedAccount(api, { role: 'admin' }),
    seedAccount(api, awake),
  ]);
  callers.owner.token = owner.token;
  callers.other.token = other.token;
  callers.admin.token = admin.token;
  ownerId = new ObjectId(owner._id);
  set = legacyDocuments({ owner: ownerId, neighbour: new ObjectId(neighbour._id) }, { seed: 'legacy-routes' });
  refused = await api.db((db) => seedLegacyDocuments(db, set));
  const solo = await Promise.all(set.soloRiders.map((_id) => seedAccount(api, { _id })));
  for (const account of [owner, neighbour, ...solo]) riderTokens.set(account._id, account.token);
  doc = await apiDocument(api.env);
}, 120_000);

/** Runs calls with bounded concurrency, collecting every page's outcome and the log's error lines. */
async function sweep(calls: PlannedCall[]): Promise<{ outcomes: CallOutcome[]; errors: Map<string, string> }> {
  let outcomes: CallOutcome[] = [];
  const lines = await captureLogLines(async () => {
    outcomes = (await inBatches(calls, CONCURRENCY, (call) => makeCall(api, call, doc))).flat();
  });
  return { outcomes, errors: errorsByRequest(lines) };
}

/** The calls of a table of writes over the documents each caller may write. */
function writeCalls(writes: LegacyWrite[]): PlannedCall[][] {
  return writes.map((write) => {
    const entries = set.of(write.collection).filter((entry, index) => {
      if (write.once) return entry.label === 'clean';
      if (write.every && entry.label.includes(':') && index % write.every !== 0) return false;
      return write.as === 'owner' ? entry.rider.equals(ownerId) : true;
    });
    return entries.flatMap((entry): PlannedCall[] => {
      const path = write.path(entry.doc as Document);
      const caller =
        write.as === 'rider'
          ? { name: 'its rider', token: riderTokens.get(String(entry.doc.userId)) }
          : callers[write.as];
      if (!path || !caller.token) return [];
      const template = `${path.replace(/[0-9a-f]{24}/g, '{id}')} (${write.collection})`;
      const json = typeof write.json === 'function' ? write.json(entry.doc as Document) : write.json;
      return [{ caller, method: write.method, template, path, json, about: `${write.collection} ${entry.label}` }];
    });
  });
}

/** Each table row's calls run together; rows run one after another, so writes on one document never race. */
async function runWrites(writes: LegacyWrite[]) {
  const all: { outcomes: CallOutcome[]; errors: Map<string, string> } = { outcomes: [], errors: new Map() };
  for (const calls of writeCalls(writes)) {
    const { outcomes, errors } = await sweep(calls);
    all.outcomes.push(...outcomes);
    for (const [id, error] of errors) all.errors.set(id, error);
  }
  return all;
}

function parsedLine(line: string): Record<string, unknown> | null {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

let getOutcomes: CallOutcome[] = [];

describe('documents of every Live collection as years of schemaless writes left them', () => {
  it('seeds every variant a unique index allows', () => {
    // Two variants that both leave out a unique field (a slug, an email) cannot both be in an indexed database.
    expect(refused.length, refused.join('\n')).toBeLessThan(set.documents.length / 20);
  });

  it('every GET route of the API description answers without a 5xx, as the owner, another rider, an admin and anonymously', async () => {
    const calls = plannedGets(doc as unknown as OperationsDocument, set, Object.values(callers), ['owner']);
    const { outcomes, errors } = await sweep(calls);
    getOutcomes = outcomes;
    const failing = outcomes.filter((outcome) => outcome.status >= 500);
    expect(failing.length, serverErrorReport(outcomes, errors)).toBe(0);
  }, 120_000);

  it('every GET answer over them matches the API description', () => {
    const broken = getOutcomes.filter((outcome) => outcome.violation && outcome.status < 500);
    expect(broken.length, contractReport(getOutcomes)).toBe(0);
  });

  it('a list shows its clean documents beside the legacy ones, and its pages move on past them', () => {
    // Each list route, who asks, and the collection whose clean documents it must show.
    const lists: [string, keyof typeof callers, string][] = [
      ['/api/spots', 'anonymous', 'spots'],
      ['/api/tricklists', 'owner', 'tricklists'],
      ['/api/spotlists', 'owner', 'spotlists'],
      ['/api/trickipedia', 'anonymous', 'trickipedia'],
      ['/api/blog', 'anonymous', 'blog'],
      ['/api/categories', 'anonymous', 'categories'],
      ['/api/feed', 'other', 'feed_posts'],
      ['/api/conversations', 'owner', 'conversations'],
      ['/api/events', 'anonymous', 'events'],
      ['/api/event-subscriptions', 'owner', 'eventSubscriptions'],
      ['/api/admin/users', 'admin', 'users'],
    ];
    const missing = lists.flatMap(([template, who, collection]) => {
      const shown = new Set(
        getOutcomes
          .filter((o) => o.call.template === template && o.call.caller === callers[who] && o.status === 200)
          .flatMap((o) => [...(o.ids ?? [])]),
      );
      // The owner's clean one; a public list shows the neighbour's too.
      const expected = set
        .of(collection)
        .filter((e) => e.label === 'clean' || (e.label === 'clean (neighbour)' && who !== 'owner'));
      return expected
        .filter((e) => !shown.has(String(e.doc._id)))
        .map((e) => `${template} as ${callers[who].name} leaves out ${collection} ${e.label}`);
    });
    expect(missing, missing.join('\n')).toEqual([]);
  });

  it('a document belongs to its owner however the owner id or its own id was stored', async () => {
    // Each owned collection's single-document route, and the variants that store the same ids another way.
    const owned: [string, string, string[]][] = [
      ['tricklists', '/api/tricklists/{id}', ['userId: hex string', '_id: hex string']],
      ['spotlists', '/api/spotlists/{id}', ['userId: hex string', '_id: hex string']],
      ['conversations', '/api/conversations/{id}/messages', ['participantIds: hex strings', '_id: hex string']],
      ['eventSubscriptions', '/api/event-subscriptions/{id}', ['userId: hex string', '_id: hex string']],
    ];
    const calls = owned.flatMap(([collection, route, labels]) =>
      set
        .of(collection)
        .filter((entry) => labels.includes(entry.label))
        .map((entry) => ({
          caller: { name: 'its owner', token: riderTokens.get(entry.rider.toHexString()) },
          method: 'GET',
          template: route,
          path: route.replace('{id}', String(entry.doc._id)),
          about: `${collection} ${entry.label}`,
        })),
    );
    const { outcomes } = await sweep(calls);
    const refusedToOwner = outcomes
      .filter((o) => o.status !== 200)
      .map((o) => `${o.call.template} over ${o.call.about} → ${o.status} ${o.excerpt}`);
    expect(calls.length).toBeGreaterThan(0);
    expect(refusedToOwner, refusedToOwner.join('\n')).toEqual([]);
  });

  it('every cron job completes over them, skipping and counting what it cannot read, and does the clean items beside them', async () => {
    const problems: string[] = [];
    for (const schedule of SCHEDULES) {
      let thrown: unknown;
      const lines = await captureLogLines(() => runCron(schedule.cron).catch((err) => (thrown = err)));
      const cronLine = lines.map(parsedLine).find((line) => line?.kind === 'cron');
      const unreadable = eventLines(lines, 'store.document.unreadable').length;
      // A run that left items out says so with their count beside the outcome (any count field but the duration).
      const counted = Object.entries(cronLine ?? {}).some(
        ([k, v]) => k !== 'durationMs' && typeof v === 'number' && v > 0,
      );
      const completed = cronLine?.outcome === 'ok' || (cronLine?.outcome === 'partial' && counted);
      if (thrown || !completed)
        problems.push(
          `${schedule.job} (${schedule.cron}): ${thrown ? String(thrown).slice(0, 300) : `outcome ${cronLine?.outcome}`} ` +
            `${cronLine?.error ?? ''} (${unreadable} unreadable documents logged)`,
        );
    }
    const cleanIds = (collection: string) =>
      set
        .of(collection)
        .filter((e) => e.label.startsWith('clean'))
        .map((e) => e.doc._id);
    const pending = (collection: string, field: string) =>
      api.db((db) =>
        db.collection(collection).countDocuments({ _id: { $in: cleanIds(collection) }, [field]: 'pending' }),
      );
    const undone = {
      'clean reminders still pending': await pending('scheduledNotifications', 'status'),
      'clean event notification jobs still pending': await pending('eventNotificationJobs', 'status'),
      'clean push receipts still pending': await pending('notificationDeliveryLog', 'receiptStatus'),
    };
    for (const [what, count] of Object.entries(undone)) if (count > 0) problems.push(`${what}: ${count}`);
    const failedRuns = await api.db((db) => db.collection('ingestion_runs').find({ status: 'failed' }).toArray());
    for (const run of failedRuns)
      problems.push(`ingestion of ${run.source} failed: ${String(run.error).slice(0, 300)}`);
    expect(problems, problems.join('\n')).toEqual([]);
  }, 120_000);

  it("the owner's (and an admin's) writes on legacy documents answer without a 5xx", async () => {
    const { outcomes, errors } = await runWrites(LEGACY_EDITS);
    expect(outcomes.filter((o) => o.status >= 500).length, serverErrorReport(outcomes, errors)).toBe(0);
  }, 120_000);

  it('deleting legacy documents, and accounts whose data is legacy, answers without a 5xx', async () => {
    const { outcomes, errors } = await runWrites(LEGACY_DELETES);
    // Last: the owner deletes their own account, which runs every domain's cleanup over their legacy documents.
    const { outcomes: own, errors: ownErrors } = await sweep([
      {
        caller: callers.owner,
        method: 'DELETE',
        template: '/api/users/{id} (own account)',
        path: `/api/users/${ownerId.toHexString()}`,
      },
    ]);
    for (const [id, error] of ownErrors) errors.set(id, error);
    const all = [...outcomes, ...own];
    expect(all.filter((o) => o.status >= 500).length, serverErrorReport(all, errors)).toBe(0);
  }, 120_000);
});
