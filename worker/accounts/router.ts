import type { AppEnv } from '../platform/app-env';
import type { Cleanup } from '../platform/db/personal-data';
import { createRouter } from '../platform/http/openapi';
import { adminExportRoutes } from './exports/admin-routes';
import { exportFileRoutes } from './exports/file-routes';
import { exportRoutes } from './exports/routes';
import { adminSessionRoutes } from './sessions/admin-routes';
import { checkCurrentPassword } from './sessions/current-password';
import { closeDeletedAccountSockets, closeSuspendedSockets, endOtherSessionsAccess } from './sessions/end-access';
import { passwordRoutes } from './sessions/password-routes';
import { sessionRoutes } from './sessions/routes';
import { signInRoutes } from './sign-in/routes';
import { type SuspensionRouteDeps, suspensionRoutes } from './suspension/routes';
import { adminUserRoutes } from './users/admin-routes';
import { type UserRouteDeps, userRoutes } from './users/routes';

/**
 * Accounts: registration and sign-in, the rider's account, sessions and passwords, suspensions, copies of a rider's
 * data. A deletion runs every domain's personal-data cleanups, a profile picture from an upload is social's media,
 * and a push to the rider is the notifications domain's: each handed in where the app is composed.
 */
export const accountsRoutes = (
  personalData: readonly Cleanup[],
  { profilePicture, notifyRider }: Pick<UserRouteDeps, 'profilePicture'> & Pick<SuspensionRouteDeps, 'notifyRider'>,
) =>
  createRouter<AppEnv>()
    .route('/api', signInRoutes)
    .route(
      '/api/users',
      userRoutes({
        checkCurrentPassword,
        endOtherSessions: endOtherSessionsAccess,
        closeDeletedAccountSockets,
        personalData,
        profilePicture,
      }),
    )
    .route('/api/admin', adminUserRoutes)
    .route('/api/admin', suspensionRoutes({ notifyRider, closeSuspendedSockets }))
    .route('/api', sessionRoutes)
    .route('/api', passwordRoutes)
    .route('/api/admin', adminSessionRoutes)
    .route('/api/users/me', exportRoutes)
    .route('/api/admin', adminExportRoutes)
    .route('/api/exports', exportFileRoutes);
