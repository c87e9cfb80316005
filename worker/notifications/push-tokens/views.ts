import type { PushTokenDoc } from '../documents';

/** A token as its owner sees it; the web push keys are never echoed. */
export const pushTokenView = (doc: PushTokenDoc) => ({
  token: doc.token,
  platform: doc.platform,
  transport: doc.transport,
  ...(doc.endpoint ? { endpoint: doc.endpoint } : {}),
  ...(doc.appVersion ? { appVersion: doc.appVersion } : {}),
  ...(doc.deviceModel ? { deviceModel: doc.deviceModel } : {}),
  ...(doc.timezone ? { timezone: doc.timezone } : {}),
  ...(doc.locale ? { locale: doc.locale } : {}),
  lastSeenAt: doc.lastSeenAt.toISOString(),
  createdAt: doc.createdAt.toISOString(),
});
