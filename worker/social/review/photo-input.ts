import type { ModerationInput } from '../../moderation/model/client';
import { dataUrlOf } from '../../moderation/model/screen';
import type { MediaDoc } from '../documents';

/** A stored photo as the model takes it (a data URL: it is not public yet); undefined for a video or a missing object. */
export async function photoInput(
  bucket: R2Bucket,
  media: Pick<MediaDoc, 'key' | 'type' | 'kind'>,
): Promise<ModerationInput | undefined> {
  if (media.kind !== 'image') return undefined;
  const object = await bucket.get(media.key);
  if (!object) return undefined;
  return { imageDataUrl: dataUrlOf(media.type, new Uint8Array(await object.arrayBuffer())) };
}
