import { z } from '@hono/zod-openapi';
import { pathId } from '../../platform/http/ids';
import { LIMITS } from '../../platform/limits';
import { normalizeTerm, TERM_KINDS, TERM_MATCHES } from './matching';

const { termMax, reasonMax } = LIMITS.wordFilter;

export const TermParam = z.object({ termId: pathId('termId') });

const Reason = z
  .string()
  .trim()
  .min(1, 'must not be blank')
  .max(reasonMax)
  .describe('why, for the moderator action log');

export const NewTerm = z
  .object({
    term: z
      .string()
      .max(termMax)
      .transform(normalizeTerm)
      .refine((term) => term.length > 0, 'must hold a word')
      .describe('a word or short phrase; stored lower-cased with spaces collapsed'),
    kind: z
      .enum(TERM_KINDS)
      .default('block')
      .describe('block: refused in what riders publish; allow: let through where the built-in list would refuse it'),
    match: z
      .enum(TERM_MATCHES)
      .default('word')
      .describe('word: only as a whole word ("kook", not "kooky"); part: also inside other words'),
    reason: Reason,
  })
  .strict();

export const TermRemoval = z.object({ reason: Reason }).strict();

export const ModerationTerm = z
  .object({
    _id: z.string(),
    term: z.string(),
    kind: z.enum(TERM_KINDS),
    match: z.enum(TERM_MATCHES),
    createdAt: z.string(),
  })
  .openapi('ModerationTerm');

export const ModerationTermList = z.object({
  items: z.array(ModerationTerm).describe(`oldest first; ${LIMITS.wordFilter.termsMax} at most`),
});

export const DeletedTerm = z.object({ deleted: z.literal(true), termId: z.string() });
