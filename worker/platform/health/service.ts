import type { Store } from '../db/store';

/** Whether the database answers a ping; the reason it does not goes to the log. */
export async function databaseAnswers(store: Store): Promise<boolean> {
  try {
    await store.db.command({ ping: 1 });
    return true;
  } catch (err) {
    console.error(`health: database ping failed: ${(err as Error).message}`);
    return false;
  }
}
