import { z } from '@hono/zod-openapi';
import { keysetCursor } from '../../platform/http/keyset-cursor';
import { Slug, slugDerivable, slugify } from '../../platform/http/slug';
import { queryText } from '../../platform/http/text';
import { WebUrl } from '../../platform/http/web-url';
import { LIMITS } from '../../platform/limits';
import { SPORTS } from '../../platform/sports';
import type { TrickipediaDoc } from '../documents';

const Sport = z.enum(SPORTS);
const TrickName = z.string().trim().min(LIMITS.name.min, 'must not be empty').max(LIMITS.name.max);

/** The whole entry: POST creates it, PUT replaces every mutable field with it (left-out optionals are removed). */
export const EntryBody = z
  .object({
    name: TrickName,
    slug: Slug.optional().describe('unique; derived from the name when left out'),
    sport: Sport,
    category: Slug.describe('the slug of an existing category (GET /api/categories)'),
    description: z.string().trim().min(1, 'must not be empty').max(LIMITS.content.descriptionMax),
    difficulty: z
      .number()
      .int()
      .min(LIMITS.content.difficulty.min)
      .max(LIMITS.content.difficulty.max)
      .optional()
      .describe(`${LIMITS.content.difficulty.min} (easiest) to ${LIMITS.content.difficulty.max}`),
    aliases: z
      .array(TrickName)
      .max(LIMITS.content.aliasesMax)
      .optional()
      .describe('other names riders use; searched like the name'),
    videoUrl: WebUrl.optional(),
  })
  .strict()
  .superRefine(slugDerivable('name'));
type EntryBody = z.infer<typeof EntryBody>;

export type EntryFields = Omit<TrickipediaDoc, '_id' | 'createdAt' | 'updatedAt'>;

/** The stored fields a body gives: a derived slug when none was sent, no key for a left-out optional. */
export function entryFields(body: EntryBody): EntryFields {
  return {
    name: body.name,
    slug: body.slug ?? slugify(body.name),
    sport: body.sport,
    category: body.category,
    description: body.description,
    aliases: body.aliases ?? [],
    ...(body.difficulty !== undefined ? { difficulty: body.difficulty } : {}),
    ...(body.videoUrl !== undefined ? { videoUrl: body.videoUrl } : {}),
  };
}

export const EntryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(LIMITS.pageSizeMax).default(LIMITS.pageSizeDefault),
  cursor: keysetCursor((key) => (Array.isArray(key) && typeof key[0] === 'string' ? key[0] : undefined)),
  q: queryText().optional().describe('matches name or aliases, case-insensitive'),
  sport: Sport.optional(),
  category: Slug.optional().describe("a category's slug"),
});

export const TrickipediaEntry = z
  .object({
    _id: z.string(),
    name: z.string(),
    slug: z.string(),
    sport: Sport,
    category: z.string().describe("the category's slug"),
    description: z.string(),
    difficulty: z.number().int().optional(),
    aliases: z.array(z.string()),
    videoUrl: z.string().optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('TrickipediaEntry');

export const DeletedEntry = z.object({ deleted: z.literal(true), id: z.string() });
