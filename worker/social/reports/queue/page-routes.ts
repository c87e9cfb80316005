import type { AppEnv } from '../../../platform/app-env';
import { adminPageRoutes } from '../../../platform/http/admin-page-routes';
import { QUEUE_PAGE, QUEUE_SCRIPT, QUEUE_STYLES } from './page';

/** The queue page with its script and stylesheet, mounted at the root (outside /api: no database, no CORS), as the events desk is. */
export const queuePageRoutes = adminPageRoutes<AppEnv>({
  page: QUEUE_PAGE,
  script: QUEUE_SCRIPT,
  styles: QUEUE_STYLES,
  name: 'the moderation queue page',
  summary:
    'The moderation queue page: an admin signs in on it; reported items with their content, history and decisions',
  tags: ['moderation', 'admin'],
});
