import { z } from '@hono/zod-openapi';
import { IdString, pathId } from '../../platform/http/ids';
import { PageQuery } from '../../platform/http/pagination';
import { LIMITS } from '../../platform/limits';

/** Where a trick is on the way to landing it (the product decisions). */
export const TRICK_STATUSES = ['todo', 'learning', 'landed'] as const;
/** The statuses a rider sets by hand; `landed` only comes from POST …/land, which stamps `landedAt` once. */
export const SETTABLE_STATUSES = ['todo', 'learning'] as const;

const TrickName = z
  .string()
  .trim()
  .min(LIMITS.trickName.min, 'must not be empty')
  .max(LIMITS.trickName.max, `must be at most ${LIMITS.trickName.max} characters`);
const SettableStatus = z
  .enum(SETTABLE_STATUSES, {
    message: `must be one of ${SETTABLE_STATUSES.join(', ')} (land a trick with POST …/land)`,
  })
  .describe('landing goes through POST /api/tricklists/{listId}/tricks/{trickId}/land');
const TrickipediaRef = IdString.describe('the id of an existing trickipedia entry');

export const TrickParams = z.object({ listId: pathId('listId'), trickId: pathId('trickId') });

export const NewTrickBody = z
  .object({ name: TrickName, trickipediaId: TrickipediaRef.optional(), status: SettableStatus.default('todo') })
  .strict();

export const TrickChanges = z
  .object({
    name: TrickName.optional(),
    trickipediaId: TrickipediaRef.nullable().optional().describe('null removes the reference'),
    status: SettableStatus.optional().describe(
      'moving a landed trick back un-lands it: completed false, landedAt null',
    ),
  })
  .strict();

export const TrickQuery = PageQuery;

/** A trick as its owner sees it. */
export const Trick = z
  .object({
    _id: z.string(),
    listId: z.string(),
    name: z.string(),
    trickipediaId: z.string().nullable(),
    status: z.enum(TRICK_STATUSES),
    attempts: z.number().int().min(0),
    completed: z.boolean().describe('true once landed'),
    landedAt: z.string().nullable().describe('when the trick was first landed; null until then'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Trick');

export const DeletedTrick = z.object({ deleted: z.literal(true), trickId: z.string() });
