import { readSpotList, type SpotList } from './reader';

/** A spot list as its owner sees it (read by worker/riding/spot-lists/reader.ts). */
export function spotListView(list: SpotList) {
  return {
    _id: list._id.toHexString(),
    name: list.name,
    spotIds: list.spotIds.map((id) => id.toHexString()),
    spotCount: list.spotIds.length,
    createdAt: list.createdAt.toISOString(),
    updatedAt: list.updatedAt.toISOString(),
  };
}

/** A stored spot list as its owner sees it, or undefined when it cannot be read at all. */
export const storedSpotListView = (stored: unknown) => {
  const list = readSpotList(stored);
  return list && spotListView(list);
};
