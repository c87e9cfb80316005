import type { Refusals } from '../../platform/http/refusals';
import { LIMITS } from '../../platform/limits';

export const TERM_REFUSALS: Refusals<'taken' | 'full' | 'not-found'> = {
  taken: { status: 409, message: 'That term is already listed.' },
  full: { status: 409, message: `The list already holds ${LIMITS.wordFilter.termsMax} terms: remove one first.` },
  'not-found': { status: 404, message: 'No such term.' },
};
