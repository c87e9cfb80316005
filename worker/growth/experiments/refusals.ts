import type { Refusals } from '../../platform/http/refusals';
import type { PatchOutcome } from './service';

/** An experiment missing, already existing, or refusing a change, as the admin routes answer it. */
export const EXPERIMENT_REFUSALS: Refusals<'exists' | Exclude<PatchOutcome, { outcome: 'changed' }>> = {
  missing: { status: 404, message: 'No experiment with this key.' },
  exists: { status: 409, message: 'An experiment with this key already exists.' },
  'frozen-variants': ({ status }) => ({
    status: 409,
    message: `The variants of a ${status} experiment cannot change: units were assigned under these weights, and changing them would bias the results. Create a new experiment instead.`,
  }),
  'bad-transition': ({ from, to }) => ({ status: 409, message: `An experiment cannot move from ${from} to ${to}.` }),
};
