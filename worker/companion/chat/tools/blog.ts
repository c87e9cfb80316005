import type { Store } from '../../../platform/db/store';
import type { Env } from '../../../platform/env';
import { LIMITS } from '../../../platform/limits';
import { retrievalMode, semanticSearch } from '../../../platform/retrieval/vector-search';
import { listPosts } from '../../../riding/blog/service';

// The companion's blog look-up: published posts only (drafts are hidden from riders), by meaning
// when a vector store is bound, else by the blog's own title search, exactly as its list route does.

const rows = LIMITS.companion.toolRowsMax;
/** Enough of a post for the model to say what it is about and point the rider to it. */
const EXCERPT_CHARS = 300;

async function postsByMeaning(store: Store, env: Env, text: string) {
  const ids = await semanticSearch(env, 'blog', text, { topK: rows });
  const found = await store.blog.find({ _id: { $in: ids }, status: 'published' }).toArray();
  // Best first, as the index ranked them; a post deleted or unpublished since it was indexed is skipped.
  return ids.flatMap((id) => found.filter((post) => post._id.equals(id)));
}

export async function blogPostsFor(store: Store, env: Env, topic: string) {
  const posts =
    retrievalMode(env) === 'semantic'
      ? await postsByMeaning(store, env, topic)
      : (await listPosts(store, { status: 'published', q: topic, limit: rows })).slice(0, rows);
  return posts.map((post) => ({
    title: post.title,
    slug: post.slug,
    publishedAt: post.publishedAt?.toISOString() ?? null,
    tags: post.tags,
    excerpt: (post.excerpt ?? post.body).slice(0, EXCERPT_CHARS),
  }));
}
