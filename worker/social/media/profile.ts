import type { Context } from 'hono';
import type { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { refusal } from '../../platform/http/refusals';
import { attachRefusals } from './refusals';
import { claimForProfile } from './service';
import { mediaUrl } from './views';

/**
 * Makes the rider's photo their profile picture (accounts' `PATCH /api/users/me {imageMediaId}`): sets the rider's
 * `imageUri` to its URL, which it answers.
 */
export async function profilePicture(c: Context<AppEnv>, userId: ObjectId, mediaId: ObjectId): Promise<string> {
  const outcome = await claimForProfile(c.var.db, userId, mediaId, (id) => mediaUrl(c, id));
  if (typeof outcome === 'string') throw refusal(attachRefusals('imageMediaId'), outcome);
  return mediaUrl(c, outcome._id);
}
