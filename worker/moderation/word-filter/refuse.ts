import type { Store } from '../../platform/db/store';
import { ApiError } from '../../platform/http/errors';
import { errorResponse } from '../../platform/http/openapi';
import { wordFilterOf } from './filter-cache';

/** The 422 every route that filters riders' text documents (spread into its `responses`). */
export const OBJECTIONABLE_TEXT = {
  422: errorResponse(
    'A text uses words not allowed in what riders publish (docs/moderation.md): `error` says which field, for the rider; `details` names it. Nothing is stored',
  ),
};

// "displayName" → "display name", "media.0.caption" → "caption": the field as a rider would call it.
const spoken = (field: string) => (field.split('.').pop() ?? field).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/** The refusal of an objectionable text: it names the field and never repeats what matched. */
export const objectionableText = (field: string) =>
  new ApiError(422, `The ${spoken(field)} uses words that aren't allowed here. Please reword it and try again.`, {
    details: [{ field, message: 'uses words that are not allowed' }],
  });

/**
 * Refuses a write (a 422, worker/moderation/word-filter/refuse.ts) when any text it would publish holds a word the
 * filter refuses; each key is the body field the text came from. Absent texts are skipped. Call it before storing.
 *
 * @example await refuseObjectionable(c, { name: body.name, description: body.description });
 */
export async function refuseObjectionable(
  c: { var: { db: Store } },
  fields: Record<string, string | null | undefined>,
): Promise<void> {
  const texts = Object.entries(fields).filter((entry): entry is [string, string] => !!entry[1]);
  if (!texts.length) return;
  const filter = await wordFilterOf(c.var.db);
  for (const [field, text] of texts) if (filter.matches(text)) throw objectionableText(field);
}

/** Whether a text holds a refused word, for a path that marks rather than refuses (direct messages). */
export async function isObjectionable(store: Store, text: string): Promise<boolean> {
  return (await wordFilterOf(store)).matches(text);
}
