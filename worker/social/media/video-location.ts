import type { ReadAt } from './mp4';
import { locationOverwrites, withOverwrites } from './mp4-location';

/**
 * The completed video with the places it records blanked in the bucket (worker/social/media/mp4-location.ts): the
 * stored file streamed through the overwrites into the same key, byte for byte otherwise and of the same size, so
 * nothing is re-encoded. A video recording no place is left as it is.
 */
export async function blankVideoLocation(bucket: R2Bucket, stored: R2Object, read: ReadAt): Promise<R2Object> {
  const overwrites = await locationOverwrites(read, stored.size);
  if (!overwrites.length) return stored;
  const original = await bucket.get(stored.key);
  if (!original) throw new Error('the completed video is no longer in the bucket');
  let offset = 0;
  const patched = original.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        controller.enqueue(withOverwrites(chunk, offset, overwrites));
        offset += chunk.length;
      },
    }),
  );
  // The bucket takes a stream only when its length is known.
  const { readable, writable } = new FixedLengthStream(stored.size);
  const [rewritten] = await Promise.all([
    bucket.put(stored.key, readable, { httpMetadata: original.httpMetadata }),
    patched.pipeTo(writable),
  ]);
  return rewritten;
}
