import { z } from '@hono/zod-openapi';
import { ObjectId } from 'mongodb';
import { keysetCursor } from '../../platform/http/keyset-cursor';
import { Slug, slugDerivable } from '../../platform/http/slug';
import { lineText, queryText } from '../../platform/http/text';
import { WebUrl } from '../../platform/http/web-url';
import { LIMITS } from '../../platform/limits';

const { content } = LIMITS;
const Title = z.string().trim().min(1, 'must not be empty').max(content.titleMax);
const Body = z.string().trim().min(1, 'must not be empty').max(content.blogBodyMax).describe('markdown');
const Excerpt = z.string().trim().min(1, 'must not be empty').max(content.excerptMax);
const Tag = lineText().trim().toLowerCase().min(1, 'must not be empty').max(content.tagMax);
const Tags = z.array(Tag).max(content.tagsMax).describe('stored lower-cased, without repeats');
export const PostStatus = z.enum(['draft', 'published']);

export const NewPost = z
  .object({
    title: Title,
    slug: Slug.optional().describe('unique; derived from the title when left out'),
    body: Body,
    excerpt: Excerpt.optional(),
    coverImageUrl: WebUrl.optional(),
    tags: Tags.optional(),
    status: PostStatus.default('draft').describe('`published` stamps `publishedAt`'),
  })
  .strict()
  .superRefine(slugDerivable('title'));

export const PostUpdate = z
  .object({
    title: Title.optional(),
    slug: Slug.optional(),
    body: Body.optional(),
    excerpt: Excerpt.nullable().optional().describe('null removes it'),
    coverImageUrl: WebUrl.nullable().optional().describe('null removes it'),
    tags: Tags.optional(),
    status: PostStatus.optional().describe('the first `published` stamps `publishedAt`; a later `draft` keeps it'),
  })
  .strict();

/** The last item's sort time (publishedAt, or createdAt for drafts) and id. */
const postCursor = keysetCursor((key) => {
  if (!Array.isArray(key) || key.length !== 2) return undefined;
  const [at, id] = key;
  if (!Number.isSafeInteger(at) || typeof id !== 'string' || !/^[0-9a-f]{24}$/.test(id)) return undefined;
  return { at: new Date(at), id: new ObjectId(id) };
});

export const PostQuery = z.object({
  limit: z.coerce.number().int().min(1).max(LIMITS.pageSizeMax).default(LIMITS.pageSizeDefault),
  cursor: postCursor,
  q: queryText().optional().describe('matches the title, case-insensitive'),
  tag: Tag.optional().describe('posts with this tag'),
  status: PostStatus.default('published').describe('`draft` needs an admin token in `x-auth-token`'),
});

export const BlogPost = z
  .object({
    _id: z.string(),
    title: z.string(),
    slug: z.string(),
    body: z.string().describe('markdown'),
    excerpt: z.string().optional(),
    coverImageUrl: z.string().optional(),
    tags: z.array(z.string()),
    status: PostStatus,
    publishedAt: z.string().optional().describe('when first published'),
    authorId: z.string().optional().describe('the admin who wrote it; absent once that account is deleted'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('BlogPost');

export const DeletedPost = z.object({ deleted: z.literal(true), id: z.string() });
