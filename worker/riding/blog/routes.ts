import { ObjectId } from 'mongodb';
import { accountExists, publicUsers } from '../../accounts/users/service';
import type { AppEnv } from '../../platform/app-env';
import type { Store } from '../../platform/db/store';
import { readId } from '../../platform/db/stored-values';
import type { Env } from '../../platform/env';
import { IdParam } from '../../platform/http/ids';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { pageOf } from '../../platform/http/pagination';
import { toReadKeysetPage } from '../../platform/http/read-pages';
import { refusal } from '../../platform/http/refusals';
import { slugify } from '../../platform/http/slug';
import { admin } from '../../platform/middleware/admin';
import { OPTIONAL_TOKEN_REFUSALS, optionalCaller, PUBLIC_OR_TOKEN } from '../../platform/middleware/optional-token';
import { orSuspended } from '../../platform/middleware/suspended';
import { indexDocuments, keepIndexed, unindexDocuments } from '../../platform/retrieval/vector-search';
import { blogDocument } from '../search-index/documents';
import type { BlogPost as StoredPost } from './reader';
import { BLOG_REFUSALS } from './refusals';
import { BlogPost, DeletedPost, NewPost, PostQuery, PostUpdate } from './schema';
import { deletePost, findPost, insertPost, type ListedPost, listPosts, updatePost } from './service';
import { postView, storedPostView } from './views';

const TAGS = ['blog'];
const noPost = errorResponse('No such post (a draft, to anyone but an admin)');
const slugTaken = errorResponse('Another post has this slug');
// The public routes read a token only to let an admin see drafts; without one they answer the public.

const unique = (tags: string[] | undefined) => (tags ? [...new Set(tags)] : undefined);

const list = defineRoute({
  method: 'get',
  path: '/',
  tags: TAGS,
  summary: 'Blog posts, newest first',
  description:
    'Published posts by `publishedAt`. With `status=draft` and an admin token in `x-auth-token`, drafts by creation time.',
  security: PUBLIC_OR_TOKEN,
  request: { query: PostQuery },
  responses: {
    200: jsonResponse(pageOf(BlogPost), 'A page of posts'),
    ...OPTIONAL_TOKEN_REFUSALS,
    403: orSuspended(errorResponse('`status=draft` without an admin token')),
  },
});

const getOne = defineRoute({
  method: 'get',
  path: '/{id}',
  tags: TAGS,
  summary: 'One post; a draft only to an admin (token in x-auth-token)',
  security: PUBLIC_OR_TOKEN,
  request: { params: IdParam },
  responses: { 200: jsonResponse(BlogPost, 'The post'), ...OPTIONAL_TOKEN_REFUSALS, 404: noPost },
});

const create = defineRoute({
  method: 'post',
  path: '/',
  tags: TAGS,
  summary: 'Write a post (admin); a draft unless `status` says published',
  middleware: [admin()] as const,
  request: jsonBody(NewPost),
  responses: { 201: jsonResponse(BlogPost, 'The new post'), 409: slugTaken },
});

const update = defineRoute({
  method: 'patch',
  path: '/{id}',
  tags: TAGS,
  summary: 'Change a post (admin); the fields sent are merged',
  middleware: [admin()] as const,
  request: { params: IdParam, ...jsonBody(PostUpdate) },
  responses: { 200: jsonResponse(BlogPost, 'The post as stored now'), 404: noPost, 409: slugTaken },
});

const remove = defineRoute({
  method: 'delete',
  path: '/{id}',
  tags: TAGS,
  summary: 'Delete a post (admin)',
  middleware: [admin()] as const,
  request: { params: IdParam },
  responses: { 200: jsonResponse(DeletedPost, 'Deleted'), 404: noPost },
});

/** Drafts are hidden from the public, so only a published post is searchable. */
const reindexPost = (env: Env, post: StoredPost) =>
  post.status === 'published'
    ? indexDocuments(env, 'blog', [blogDocument(post)])
    : unindexDocuments(env, 'blog', [post._id]);

/** The hex ids of the authors among `ids` whose accounts exist. */
async function existingAuthors(store: Store, ids: ObjectId[]): Promise<Set<string>> {
  return new Set((await publicUsers(store, ids)).keys());
}

/** Where a post sits in its list: the time the database listed it by, then its id. */
const listedKey = (post: ListedPost) => {
  const id = readId(post._id);
  return id && [post.listedAt.getTime(), id.toHexString()];
};

/** The blog: published posts are public, drafts and every change are the admins' (interface spec, Admin content). */
export const blogRoutes = createRouter<AppEnv>()
  .openapi(list, async (c) => {
    const query = c.req.valid('query');
    // A token sent is checked on every read, so a bad one is refused the same whatever was asked for.
    const caller = await optionalCaller(c);
    if (query.status === 'draft' && !caller?.isAdmin) throw refusal(BLOG_REFUSALS, 'drafts-admin-only');
    const rows = await listPosts(c.var.db, query);
    const authors = await existingAuthors(
      c.var.db,
      rows.slice(0, query.limit).flatMap((row) => readId(row.authorId) ?? []),
    );
    const show = (row: ListedPost) => storedPostView(row, authors);
    return c.json(toReadKeysetPage('blog', rows, query.limit, listedKey, show), 200);
  })
  .openapi(getOne, async (c) => {
    const [post, caller] = await Promise.all([
      findPost(c.var.db, new ObjectId(c.req.valid('param').id)),
      optionalCaller(c),
    ]);
    if (!post || (post.status !== 'published' && !caller?.isAdmin)) throw refusal(BLOG_REFUSALS, 'not-found');
    const authorExists = !post.authorId || (await accountExists(c.var.db, post.authorId));
    return c.json(postView(post, authorExists), 200);
  })
  .openapi(create, async (c) => {
    const { slug, tags, ...body } = c.req.valid('json');
    const outcome = await insertPost(c.var.db, {
      ...body,
      slug: slug ?? slugify(body.title),
      tags: unique(tags) ?? [],
      authorId: new ObjectId(c.var.user._id),
    });
    if (typeof outcome === 'string') throw refusal(BLOG_REFUSALS, outcome);
    keepIndexed(c.env, c.var.inBackground, 'blog post', () => reindexPost(c.env, outcome));
    return c.json(postView(outcome), 201);
  })
  .openapi(update, async (c) => {
    const { tags, ...changes } = c.req.valid('json');
    const outcome = await updatePost(c.var.db, new ObjectId(c.req.valid('param').id), {
      ...changes,
      ...(tags ? { tags: unique(tags) } : {}),
    });
    if (typeof outcome === 'string') throw refusal(BLOG_REFUSALS, outcome);
    keepIndexed(c.env, c.var.inBackground, 'blog post', () => reindexPost(c.env, outcome));
    return c.json(postView(outcome), 200);
  })
  .openapi(remove, async (c) => {
    const id = c.req.valid('param').id;
    if ((await deletePost(c.var.db, new ObjectId(id))) === 'not-found') throw refusal(BLOG_REFUSALS, 'not-found');
    keepIndexed(c.env, c.var.inBackground, 'blog post', () => unindexDocuments(c.env, 'blog', [id]));
    return c.json({ deleted: true as const, id }, 200);
  });
