import { type BlogPost, readBlogPost } from './reader';

/**
 * A post as its readers see it (read by worker/riding/blog/reader.ts). `authorExists` false leaves the author out,
 * as deleting the admin's account does: older code left ids of authors who no longer exist.
 */
export function postView(post: BlogPost, authorExists = true) {
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
    ...(post.authorId && authorExists ? { authorId: post.authorId.toHexString() } : {}),
    createdAt: post.createdAt.toISOString(),
    updatedAt: post.updatedAt.toISOString(),
  };
}

/** A stored post as its readers see it (`authors`: the hex ids of authors who exist), or undefined when unreadable. */
export const storedPostView = (stored: unknown, authors: ReadonlySet<string>) => {
  const post = readBlogPost(stored);
  return post && postView(post, !post.authorId || authors.has(post.authorId.toHexString()));
};
