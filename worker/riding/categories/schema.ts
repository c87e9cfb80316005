import { z } from '@hono/zod-openapi';
import { keysetCursor } from '../../platform/http/keyset-cursor';
import { Slug, slugDerivable } from '../../platform/http/slug';
import { LIMITS } from '../../platform/limits';
import { SPORTS } from '../../platform/sports';

const CategoryName = z.string().trim().min(LIMITS.name.min, 'must not be empty').max(LIMITS.name.max);
const Sport = z.enum(SPORTS);

export const NewCategory = z
  .object({
    name: CategoryName,
    slug: Slug.optional().describe('unique; derived from the name when left out'),
    sport: Sport.optional(),
  })
  .strict()
  .superRefine(slugDerivable('name'));

export const CategoryUpdate = z
  .object({
    name: CategoryName.optional(),
    slug: Slug.optional().describe('may change only while no trickipedia entry references the category'),
    sport: Sport.nullable().optional().describe('null removes it'),
  })
  .strict();

export const CategoryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(LIMITS.pageSizeMax).default(LIMITS.pageSizeDefault),
  cursor: keysetCursor((key) => (Array.isArray(key) && typeof key[0] === 'string' ? key[0] : undefined)),
  sport: Sport.optional().describe("only this sport's categories"),
});

export const Category = z
  .object({
    _id: z.string(),
    name: z.string(),
    slug: z.string().describe('what trickipedia entries name in their `category`'),
    sport: Sport.optional(),
    entryCount: z.number().int().describe('trickipedia entries in this category'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Category');

export const DeletedCategory = z.object({ deleted: z.literal(true), id: z.string() });
