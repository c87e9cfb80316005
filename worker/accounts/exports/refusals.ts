import type { Refusals } from '../../platform/http/refusals';

/** Why an export or its file is refused, as the routes answer it. */
export const EXPORT_REFUSALS: Refusals<
  | 'not-found'
  | 'account-not-found'
  | 'not-ready'
  | 'failed'
  | 'expired'
  | 'unreadable'
  | 'link-invalid'
  | 'link-expired'
> = {
  'not-found': { status: 404, message: 'Export not found.' },
  'account-not-found': { status: 404, message: 'Account not found.' },
  'not-ready': { status: 409, message: 'The export is still being built; a push tells you when it is ready.' },
  failed: { status: 409, message: 'The export failed and has no file; ask for a new one tomorrow.' },
  expired: { status: 410, message: 'The export expired and its file was deleted; ask for a new one.' },
  unreadable: { status: 409, message: "Today's export cannot be read; ask again tomorrow." },
  'link-invalid': { status: 403, message: 'The download link is not valid.' },
  'link-expired': { status: 403, message: 'The download link expired; ask for a new one.' },
};
