import type { UserDoc } from '../../accounts/documents';
import { publicUserView } from '../../accounts/users/views';
import type { SpotTrickLanding } from './reader';

/** A landing as everyone sees it (read by worker/riding/spot-trick-history/reader.ts); no rider shows as deleted. */
export function landingView(landing: SpotTrickLanding, rider: Pick<UserDoc, '_id' | 'name' | 'imageUri'> | undefined) {
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
