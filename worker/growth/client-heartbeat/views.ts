import type { recordHeartbeat } from './service';

type Recorded = Awaited<ReturnType<typeof recordHeartbeat>>;

/** What a heartbeat answers: the installation as now stored, and what this heartbeat changed. */
export const heartbeatView = (recorded: Recorded) => ({
  installationId: recorded.installationId,
  platform: recorded.platform,
  appVersion: recorded.appVersion,
  buildNumber: recorded.buildNumber,
  linked: recorded.linked,
  versionChanged: recorded.versionChanged,
  firstSeenAt: recorded.firstSeenAt.toISOString(),
  lastSeenAt: recorded.lastSeenAt.toISOString(),
});
