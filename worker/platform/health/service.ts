import type { Store } from '../db/store';
import { describeError, logEvent } from '../ops/log-line';

/** Whether the database answers a ping; the reason it does not goes to the log. */
export async function databaseAnswers(store: Store): Promise<boolean> {
  try {
    await store.db.command({ ping: 1 });
    return true;
  } catch (err) {
    logEvent('health.db-ping.failed', { error: describeError(err) });
    return false;
  }
}
