import type { Store } from '../../platform/db/store';
import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';
import { forgetOldUsage } from './usage';

const HOUR_MS = 60 * 60 * 1000;

/**
 * The media cleanup run: media never attached within LIMITS.media.unattachedHours of its record, media hidden
 * by moderation past LIMITS.media.hiddenDays, and video uploads not completed within LIMITS.media.uploadDays
 * (aborted in R2) go; so do quota rows of past days. Each record goes by a conditional delete first, so one
 * attached meanwhile stays, and its file after.
 */
export async function runMediaCleanup(store: Store, env: Env, now = new Date()) {
  const { unattachedHours, hiddenDays, uploadDays, cleanupBatch } = LIMITS.media;
  const unattached = {
    attachedTo: { $exists: false },
    createdAt: { $lt: new Date(now.getTime() - unattachedHours * HOUR_MS) },
  };
  const hidden = { hiddenAt: { $lt: new Date(now.getTime() - hiddenDays * 24 * HOUR_MS) } };
  let media = 0;
  for (const filter of [unattached, hidden]) {
    for (const { _id } of await store.media
      .find(filter, { projection: { _id: 1 } })
      .limit(cleanupBatch)
      .toArray()) {
      const removed = await store.media.findOneAndDelete({ _id, ...filter });
      if (!removed) continue;
      await env.MEDIA.delete(removed.key);
      media += 1;
    }
  }
  let uploads = 0;
  const stale = { createdAt: { $lt: new Date(now.getTime() - uploadDays * 24 * HOUR_MS) } };
  for (const { _id } of await store.media_uploads
    .find(stale, { projection: { _id: 1 } })
    .limit(cleanupBatch)
    .toArray()) {
    const removed = await store.media_uploads.findOneAndDelete({ _id, ...stale });
    if (!removed) continue;
    await env.MEDIA.resumeMultipartUpload(removed.key, removed.r2UploadId).abort();
    uploads += 1;
  }
  return { media, uploads, usageRows: await forgetOldUsage(store, now) };
}
