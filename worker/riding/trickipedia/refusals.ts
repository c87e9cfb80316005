import { invalidBodyField, type Refusals } from '../../platform/http/refusals';

/** A trickipedia-service outcome that is not an entry, as the routes answer it. */
export const TRICKIPEDIA_REFUSALS: Refusals<'not-found' | 'unknown-category' | 'slug-taken'> = {
  'not-found': { status: 404, message: 'Trickipedia entry not found.' },
  'slug-taken': { status: 409, message: 'A trickipedia entry with this slug already exists.' },
  'unknown-category': invalidBodyField('category', 'no category has this slug'),
};
