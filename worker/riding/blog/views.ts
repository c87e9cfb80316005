import { type BlogPost, readBlogPost } from './reader';

/** A post as its readers see it (read by worker/riding/blog/reader.ts). */
export function postView(post: BlogPost) {
  return {
    _id: post._id.toHexString(),
    title: post.title,
    slug: post.slug,
    body: post.body,
    ...(post.excerpt ? { excerpt: post.excerpt } : {}),
    ...(post.coverImageUrl ? { coverImageUrl: post.coverImageUrl } : {}),
    tags: post.tags,
    status: post.status,
    ...(post.publishedAt ? { publishedAt: post.publishedAt.toISOString() } : {}),
    ...(post.authorId ? { authorId: post.authorId.toHexString() } : {}),
    createdAt: post.createdAt.toISOString(),
    updatedAt: post.updatedAt.toISOString(),
  };
}

/** A stored post as its readers see it, or undefined when it cannot be read at all. */
export const storedPostView = (stored: unknown) => {
  const post = readBlogPost(stored);
  return post && postView(post);
};
