import type { SpotListDoc } from '../documents';

/** A spot list as its owner sees it. */
export function spotListView(list: SpotListDoc) {
  return {
    _id: list._id.toHexString(),
    name: list.name,
    spotIds: list.spotIds.map((id) => id.toHexString()),
    spotCount: list.spotIds.length,
    createdAt: list.createdAt.toISOString(),
    updatedAt: list.updatedAt.toISOString(),
  };
}
