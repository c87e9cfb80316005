import type { Refusals } from '../../platform/http/refusals';
import type { ReportTargetType } from '../documents';

/** A report refused: its target is gone, or (at the desk) the report is missing, resolved, or asks to remove a rider. */
export const REPORT_REFUSALS: Refusals<
  `${ReportTargetType}-not-found` | 'not-found' | 'resolved-already' | 'not-removable'
> = {
  'post-not-found': { status: 404, message: 'No such post.' },
  'comment-not-found': { status: 404, message: 'No such comment.' },
  'user-not-found': { status: 404, message: 'No such user.' },
  'not-found': { status: 404, message: 'Report not found.' },
  'resolved-already': { status: 409, message: 'This report is resolved already.' },
  'not-removable': {
    status: 400,
    message: 'action: a rider is never removed through a report; dismiss it, or act on the account.',
  },
};
