import type { AppEnv } from '../platform/app-env';
import { createRouter } from '../platform/http/openapi';
import { blockRoutes } from './blocks/routes';
import { commentRoutes } from './comments/routes';
import { conversationRoutes } from './conversations/routes';
import { feedRoutes } from './feed/routes';
import { followRoutes } from './follows/routes';
import { mediaRoutes } from './media/routes';
import { messageRoutes } from './messages/routes';
import { profileRoutes } from './profiles/routes';
import { reactionRoutes } from './reactions/routes';
import { queuePageRoutes } from './reports/queue/page-routes';
import { queueRoutes } from './reports/queue/routes';
import { adminReportRoutes, reportRoutes } from './reports/routes';
import { mySavedPostRoutes, savedPostRoutes } from './saved-posts/routes';

/** Social: the feed with comments, reactions and saves; riders' photos and videos (media); conversations and messages; blocks and reports; riders following riders. */
export const socialRoutes = createRouter<AppEnv>()
  .route('/api/conversations', conversationRoutes)
  .route('/api/conversations', messageRoutes)
  .route('/api/media', mediaRoutes)
  .route('/api/feed', feedRoutes)
  .route('/api/feed', reactionRoutes)
  .route('/api/feed', commentRoutes)
  .route('/api/feed', savedPostRoutes)
  .route('/api/users', mySavedPostRoutes)
  .route('/api/users', blockRoutes)
  .route('/api/users', followRoutes)
  .route('/api/users', profileRoutes)
  .route('/api/reports', reportRoutes)
  .route('/api/admin', adminReportRoutes)
  .route('/api/admin', queueRoutes)
  .route('/', queuePageRoutes);
