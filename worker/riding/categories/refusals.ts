import { ApiError } from '../../platform/http/errors';
import type { Referenced } from './service';

const entries = (count: number) => `${count} trickipedia ${count === 1 ? 'entry' : 'entries'}`;

/** A categories-service outcome that is not a category, as the HTTP error a route answers with. */
export function refusal(outcome: 'not-found' | 'slug-taken'): ApiError {
  if (outcome === 'not-found') return new ApiError(404, 'Category not found.');
  return new ApiError(409, 'A category with this slug already exists.');
}

/** A delete or a slug change refused because entries reference the category: 409 saying how many. */
export function stillReferenced({ referencedBy }: Referenced, attempted: 'delete' | 'slug-change'): ApiError {
  return attempted === 'delete'
    ? new ApiError(409, `The category is referenced by ${entries(referencedBy)}; move or delete them first.`)
    : new ApiError(409, `The category's slug cannot change while ${entries(referencedBy)} reference it.`);
}
