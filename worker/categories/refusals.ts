import { ApiError } from '../http/errors';
import type { Referenced } from './service';

const entries = (count: number) => `${count} trickipedia ${count === 1 ? 'entry' : 'entries'}`;

/** A categories-service outcome that is not a category, as the HTTP error a route answers with. */
export function refusal(outcome: 'not-found' | 'slug-taken' | Referenced, attempted: 'delete' | 'update'): ApiError {
  if (outcome === 'not-found') return new ApiError(404, 'Category not found.');
  if (outcome === 'slug-taken') return new ApiError(409, 'A category with this slug already exists.');
  const count = entries(outcome.referencedBy);
  return attempted === 'delete'
    ? new ApiError(409, `The category is referenced by ${count}; move or delete them first.`)
    : new ApiError(409, `The category's slug cannot change while ${count} reference it.`);
}
