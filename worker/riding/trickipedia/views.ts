import type { SPORTS } from '../../platform/sports';
import type { TrickipediaDoc } from '../documents';

export function entryView(entry: TrickipediaDoc) {
  return {
    _id: entry._id.toHexString(),
    name: entry.name,
    slug: entry.slug,
    sport: entry.sport as (typeof SPORTS)[number],
    category: entry.category,
    description: entry.description,
    ...(entry.difficulty !== undefined ? { difficulty: entry.difficulty } : {}),
    aliases: entry.aliases ?? [],
    ...(entry.videoUrl ? { videoUrl: entry.videoUrl } : {}),
    createdAt: entry.createdAt.toISOString(),
    updatedAt: entry.updatedAt.toISOString(),
  };
}
