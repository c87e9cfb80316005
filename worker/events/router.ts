import type { AppEnv } from '../platform/app-env';
import { createRouter } from '../platform/http/openapi';
import { eventRoutes } from './catalog/routes';
import { eventDeskPageRoutes, eventDeskRoutes } from './desk/routes';
import { adminIngestionRoutes } from './ingestion/routes';
import { eventRelationshipRoutes, myEventRoutes } from './relationships/routes';
import { eventSaveRoutes, mySavedEventRoutes } from './saves/routes';
import { eventSubmissionRoutes } from './submissions/routes';
import { eventSubscriptionRoutes } from './subscriptions/routes';

/**
 * Events: the catalog, what riders do with events (saves, relationships, subscriptions), community
 * submissions, the admin desk with its page, and ingestion from the sources.
 */
export const eventsRoutes = createRouter<AppEnv>()
  .route('/api/admin', adminIngestionRoutes)
  .route('/api/admin', eventDeskRoutes)
  .route('/api/events', eventSubmissionRoutes)
  .route('/api/events', eventRoutes)
  .route('/api/events', eventSaveRoutes)
  .route('/api/users', mySavedEventRoutes)
  .route('/api/events', eventRelationshipRoutes)
  .route('/api/users', myEventRoutes)
  .route('/api/event-subscriptions', eventSubscriptionRoutes)
  .route('/', eventDeskPageRoutes);
