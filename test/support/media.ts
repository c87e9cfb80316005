import type { TestAccount } from './accounts';
import type { Api } from './worker-api';

/** Uploads a photo's bytes as the account, sent with `contentType` (the service decides the type from the bytes). */
export function sendPhoto(api: Api, as: TestAccount, bytes: Uint8Array, contentType = 'image/jpeg') {
  return api.fetch('/api/media', {
    method: 'POST',
    headers: { 'x-auth-token': as.token, 'content-type': contentType },
    body: bytes,
  });
}

/** Uploads a photo and answers its JSON; fails the test unless it was stored. */
export async function uploadPhoto(api: Api, as: TestAccount, bytes: Uint8Array) {
  const res = await sendPhoto(api, as, bytes);
  if (res.status !== 201) throw new Error(`photo not stored: ${res.status} ${await res.text()}`);
  return res.json<{ mediaId: string; type: string; bytes: number; width: number; height: number; url: string }>();
}

/** The stored object's bytes straight from the bucket, or null when it is gone. */
export async function storedObject(api: Api, ownerId: string, mediaId: string): Promise<Uint8Array | null> {
  const object = await api.env.MEDIA.get(`media/${ownerId}/${mediaId}`);
  return object ? new Uint8Array(await object.arrayBuffer()) : null;
}

/** Sends part `n` of a video upload. */
export function sendPart(api: Api, as: TestAccount, uploadId: string, n: number, bytes: Uint8Array) {
  return api.fetch(`/api/media/uploads/${uploadId}/parts/${n}`, {
    method: 'PUT',
    headers: { 'x-auth-token': as.token, 'content-type': 'application/octet-stream' },
    body: bytes,
  });
}
