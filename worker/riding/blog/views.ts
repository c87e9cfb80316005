import type { BlogPostDoc } from '../documents';

export function postView(post: BlogPostDoc) {
  return {
    _id: post._id.toHexString(),
    title: post.title,
    slug: post.slug,
    body: post.body,
    ...(post.excerpt ? { excerpt: post.excerpt } : {}),
    ...(post.coverImageUrl ? { coverImageUrl: post.coverImageUrl } : {}),
    tags: post.tags ?? [],
    status: post.status,
    ...(post.publishedAt ? { publishedAt: post.publishedAt.toISOString() } : {}),
    ...(post.authorId ? { authorId: post.authorId.toHexString() } : {}),
    createdAt: post.createdAt.toISOString(),
    updatedAt: post.updatedAt.toISOString(),
  };
}

/** Where a post sits in its list: the time it is sorted by, then its id. */
export function postSortKey(post: BlogPostDoc, status: BlogPostDoc['status']): [number, string] {
  const at = status === 'published' ? (post.publishedAt ?? post.createdAt) : post.createdAt;
  return [at.getTime(), post._id.toHexString()];
}
