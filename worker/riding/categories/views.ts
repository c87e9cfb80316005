import { type Category, readCategory } from './reader';

/** A category as everyone sees it (read by worker/riding/categories/reader.ts). */
export function categoryView(category: Category) {
  return {
    _id: category._id.toHexString(),
    name: category.name,
    slug: category.slug,
    ...(category.sport ? { sport: category.sport } : {}),
    entryCount: category.entryCount,
    createdAt: category.createdAt.toISOString(),
    updatedAt: category.updatedAt.toISOString(),
  };
}

/** A stored category as everyone sees it, or undefined when it cannot be read at all. */
export const storedCategoryView = (stored: unknown) => {
  const category = readCategory(stored);
  return category && categoryView(category);
};
