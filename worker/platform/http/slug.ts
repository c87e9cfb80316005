import { z } from '@hono/zod-openapi';
import { LIMITS } from '../limits';

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A URL-safe identifier: lower-case letters and digits in words joined by single hyphens. */
export const Slug = z
  .string()
  .max(LIMITS.content.slugMax)
  .regex(SLUG_PATTERN, 'must be lower-case letters and digits joined by single hyphens, e.g. "kickflip-to-fakie"');

/**
 * The slug a title or name gives, e.g. "Frontside 180 Ollie!" → "frontside-180-ollie"; accents
 * are dropped ("Café" → "cafe"); '' when nothing usable is left (a name of only emoji).
 */
export function slugify(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > LIMITS.content.slugMax) {
      slug ||= word.slice(0, LIMITS.content.slugMax);
      break;
    }
    slug = next;
  }
  return slug;
}

/** The refinement for a body whose slug may be left out: then its `from` field must give one. */
export function slugDerivable<T extends { slug?: string | undefined }>(from: keyof T & string) {
  return (body: T, ctx: z.RefinementCtx) => {
    const text = body[from];
    // An empty name is the name's own 400; only a non-empty one that gives no slug is the slug's.
    if (body.slug === undefined && typeof text === 'string' && text.trim() && !slugify(text)) {
      ctx.addIssue({ code: 'custom', path: ['slug'], message: `cannot be derived from the ${from}; send one` });
    }
  };
}
