import type { CategoryDoc } from '../documents';

export function categoryView(category: CategoryDoc) {
  return {
    _id: category._id.toHexString(),
    name: category.name,
    slug: category.slug,
    ...(category.sport ? { sport: category.sport } : {}),
    entryCount: category.entryCount ?? 0,
    createdAt: category.createdAt.toISOString(),
    updatedAt: category.updatedAt.toISOString(),
  };
}
