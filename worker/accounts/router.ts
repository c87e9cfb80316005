import type { AppEnv } from '../platform/app-env';
import type { Cleanup } from '../platform/db/personal-data';
import { createRouter } from '../platform/http/openapi';
import { adminSessionRoutes } from './sessions/admin-routes';
import { checkCurrentPassword } from './sessions/current-password';
import { passwordRoutes } from './sessions/password-routes';
import { sessionRoutes } from './sessions/routes';
import { revokeOtherSessions } from './sessions/service';
import { signInRoutes } from './sign-in/routes';
import { adminUserRoutes } from './users/admin-routes';
import { userRoutes } from './users/routes';

/**
 * Accounts: registration and sign-in, the rider's account, sessions and passwords. A deletion runs every
 * domain's personal-data cleanups, handed in where the app is composed.
 */
export const accountsRoutes = (personalData: readonly Cleanup[]) =>
  createRouter<AppEnv>()
    .route('/api', signInRoutes)
    .route('/api/users', userRoutes({ checkCurrentPassword, revokeOtherSessions, personalData }))
    .route('/api/admin', adminUserRoutes)
    .route('/api', sessionRoutes)
    .route('/api', passwordRoutes)
    .route('/api/admin', adminSessionRoutes);
