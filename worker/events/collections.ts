import { holds } from '../platform/db/collections';
import type { StoredDoc } from '../platform/db/stored-doc';
import type {
  EventChangeLogDoc,
  EventDoc,
  EventNotificationJobDoc,
  EventRelationshipDoc,
  EventSaveDoc,
  EventSourceDoc,
  EventSourceRecordDoc,
  EventSubscriptionDoc,
  IngestionRunDoc,
  MigrationCheckpointDoc,
  OrganizerDoc,
} from './documents';

/** Events: the catalog, what riders do with events, the sources and their ingestion. Each collection's name and the type of its documents. */
export const EVENTS_COLLECTIONS = {
  events: holds<EventDoc>(),
  event_saves: holds<EventSaveDoc>(),
  eventSources: holds<EventSourceDoc>(),
  eventSourceRecords: holds<EventSourceRecordDoc>(),
  eventSubscriptions: holds<EventSubscriptionDoc>(),
  eventSaves: holds<StoredDoc>(),
  eventChangeLog: holds<EventChangeLogDoc>(),
  eventNotificationJobs: holds<EventNotificationJobDoc>(),
  organizers: holds<OrganizerDoc>(),
  ingestion_runs: holds<IngestionRunDoc>(),
  eventRelationships: holds<EventRelationshipDoc>(),
  migration_checkpoints: holds<MigrationCheckpointDoc>(),
};

type EventsCollections = typeof EVENTS_COLLECTIONS;

// Adds these to the platform's list, so every Store has a typed accessor for each of them.
declare module '../platform/db/collections' {
  interface Collections extends EventsCollections {}
}
