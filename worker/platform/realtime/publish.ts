import type { ServerEvent } from '../../../durable-objects/realtime-events';
import type { Env } from '../env';
import type { DatabaseVariables } from '../middleware/database';
import { logError } from '../ops/log-line';
import { broadcast, type ExceptConnection, type PresenceReads, sendToRiders } from './directory';

type WriteContext = { env: Env; var: Pick<DatabaseVariables, 'inBackground'> & { requestId?: string } };

/**
 * Who receives an event: named riders (optionally not the connection that caused it, with its rider; `presence` shares their
 * directory reads with the request's other steps), or everyone but some riders.
 */
export type Audience =
  | { riders: string[]; except?: ExceptConnection; presence?: PresenceReads }
  | { everyoneBut: string[] };

/**
 * Publishes a real-time event once the write it reports is stored: in the background, so the
 * client does not wait for the fan-out, and a failure is logged, never the write's failure.
 * `audience` may read the database (the request's connection stays open until it is done).
 */
export function publishAfterWrite(c: WriteContext, event: ServerEvent, audience: () => Promise<Audience> | Audience) {
  c.var.inBackground(async () => {
    try {
      const to = await audience();
      if ('riders' in to) await sendToRiders(c.env, to.riders, event, to.except, to.presence);
      else await broadcast(c.env, event, to.everyoneBut);
    } catch (error) {
      logError(`realtime publish: ${event.name} on ${event.namespace}`, error, c.var.requestId);
    }
  });
}
