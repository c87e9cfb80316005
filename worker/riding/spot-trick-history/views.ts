import type { UserDoc } from '../../accounts/documents';
import { publicUserView } from '../../accounts/users/views';
import type { SpotTrickHistoryDoc } from '../documents';

export function landingView(
  landing: SpotTrickHistoryDoc,
  rider: Pick<UserDoc, '_id' | 'name' | 'imageUri'> | undefined,
) {
  return {
    _id: landing._id.toHexString(),
    spotId: landing.spotId.toHexString(),
    user: rider ? publicUserView(rider) : null,
    trickName: landing.trickName,
    ...(landing.trickipediaId ? { trickipediaId: landing.trickipediaId.toHexString() } : {}),
    landedAt: landing.landedAt.toISOString(),
    ...(landing.videoUrl ? { videoUrl: landing.videoUrl } : {}),
    createdAt: landing.createdAt.toISOString(),
  };
}
