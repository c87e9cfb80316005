import type { Refusals } from '../../platform/http/refusals';
import type { Referenced } from './service';

const entries = (count: number) => `${count} trickipedia ${count === 1 ? 'entry' : 'entries'}`;

/** A categories-service outcome that is not a category; a referenced category's 409 says how many entries hold it. */
export const CATEGORY_REFUSALS: Refusals<'not-found' | 'slug-taken' | Referenced<'referenced' | 'slug-referenced'>> = {
  'not-found': { status: 404, message: 'Category not found.' },
  'slug-taken': { status: 409, message: 'A category with this slug already exists.' },
  referenced: ({ referencedBy }) => ({
    status: 409,
    message: `The category is referenced by ${entries(referencedBy)}; move or delete them first.`,
  }),
  'slug-referenced': ({ referencedBy }) => ({
    status: 409,
    message: `The category's slug cannot change while ${entries(referencedBy)} reference it.`,
  }),
};
