import type { Store } from '../../platform/db/store';
import { LIMITS } from '../../platform/limits';
import { pauseListsNotOpenedSince } from '../tricklists/service';
import { cancelPendingOfLists } from './service';

/**
 * The interface spec's "no open of the list for 60 days → cadence off" as a step of the reminder run:
 * the lists' pending reminders are cancelled, and the next open of each list says so (worker/riding/tricklists/service.ts).
 */
export async function pauseUnopenedLists(store: Store, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - LIMITS.reminders.autoPauseDays * 86_400_000);
  const paused = await pauseListsNotOpenedSince(store, cutoff, now);
  await cancelPendingOfLists(store, paused, 'auto-paused', now);
  return paused.length;
}
