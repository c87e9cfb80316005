import type { AppEnv } from '../platform/app-env';
import { createRouter } from '../platform/http/openapi';
import { blogRoutes } from './blog/routes';
import { categoryRoutes } from './categories/routes';
import { listingRoutes } from './listings/routes';
import { reminderRoutes } from './reminders/routes';
import { adminRetrievalRoutes } from './search-index/routes';
import { spotListRoutes } from './spot-lists/routes';
import { spotReviewRoutes } from './spot-reviews/routes';
import { spotTrickHistoryRoutes } from './spot-trick-history/routes';
import { type SpotFeedLinks, spotRoutes } from './spots/routes';
import { stayRoutes } from './stays/routes';
import { trickipediaRoutes } from './trickipedia/routes';
import { trickListRoutes } from './tricklists/routes';
import { trickRoutes } from './tricks/routes';

/**
 * Riding: trick lists with their tricks and reminders, the encyclopedia (trickipedia, blog,
 * categories), spots with their stays, lists, reviews and trick history, and the listings.
 * What a spot's deletion asks of the feed is handed in where the app is composed.
 */
export const ridingRoutes = (feed: SpotFeedLinks) =>
  createRouter<AppEnv>()
    .route('/api/spots', spotRoutes(feed))
    .route('/api/spots', spotReviewRoutes)
    .route('/api/spots', spotTrickHistoryRoutes)
    .route('/api/tricklists', trickListRoutes)
    .route('/api/tricklists', trickRoutes)
    .route('/api/spotlists', spotListRoutes)
    .route('/api/listings', listingRoutes)
    .route('/api', stayRoutes)
    .route('/api/trickipedia', trickipediaRoutes)
    .route('/api/blog', blogRoutes)
    .route('/api/categories', categoryRoutes)
    .route('/api/users', reminderRoutes)
    .route('/api/admin', adminRetrievalRoutes);
