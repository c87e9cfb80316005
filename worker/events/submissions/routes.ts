import { ObjectId } from 'mongodb';
import { OBJECTIONABLE_TEXT, refuseObjectionable } from '../../moderation/word-filter/refuse';
import type { AppEnv } from '../../platform/app-env';
import { ApiError } from '../../platform/http/errors';
import {
  createRouter,
  defineRoute,
  errorResponse,
  jsonBody,
  jsonResponse,
  RETRY_AFTER,
} from '../../platform/http/openapi';
import { LIMITS } from '../../platform/limits';
import { auth } from '../../platform/middleware/auth';
import { submissionDocument, utcTimes } from './document';
import { takeSubmitAllowance } from './limit';
import { SubmitBody, type SubmitInput, SubmittedEvent } from './schema';
import { storeSubmission } from './service';
import { submittedEventView } from './views';

const TAGS = ['events'];

const submit = defineRoute({
  method: 'post',
  path: '/submit',
  tags: TAGS,
  summary: 'Submit an event (community submission): stored pending until an admin approves it',
  description: [
    'The target shape, validated field by field (a 400 names each bad field). Times come as the stored form, `startAt`/`endAt` (ISO 8601 instants with an offset; one without is refused), or as `startLocal`/`endLocal` (wall-clock times at the venue in `timezone`, DST included), in schedule sessions too; the place as `venue.location` (GeoJSON Point) or `venue.lat`/`venue.lng`. Both forms of one fact in one body are a 400 naming both fields. Either way the stored event is the same.',
    'A pending event is in no public list, map or calendar, and `GET /api/events/{slugOrId}` answers 404 to anyone but its submitter and admins (who send their `x-auth-token`).',
    `At most ${LIMITS.events.submissionsPerDay} submissions per rider per rolling 24 hours (setting EVENT_SUBMISSIONS_PER_DAY), then 429.`,
    'An event that looks like a stored one (the same dedupe key, or the same UTC day and city with a near-identical title) is stored with `possibleDuplicateOf` for the reviewer, not refused. See docs/event-submissions.md.',
  ].join(' '),
  middleware: [auth()] as const,
  request: jsonBody(SubmitBody),
  responses: {
    201: jsonResponse(SubmittedEvent, 'The stored submission, approvalStatus pending'),
    ...OBJECTIONABLE_TEXT,
    429: errorResponse('The daily submission allowance is spent; Retry-After gives the seconds to wait', RETRY_AFTER),
  },
});

/** What a submission would publish in its own words, by body field: the desk shows these, and approval publishes them. */
const submittedTexts = (body: SubmitInput) => ({
  title: body.title,
  description: body.description,
  series: body.series,
  'organizer.name': body.organizer?.name,
  'venue.name': body.venue?.name,
  ...Object.fromEntries((body.schedule ?? []).map((session, at) => [`schedule.${at}.name`, session.name])),
});

/** Mounted under /api/events, before the events routes (so `/submit` is not a slug). */
export const eventSubmissionRoutes = createRouter<AppEnv>().openapi(submit, async (c) => {
  const body = c.req.valid('json');
  const { times, errors } = utcTimes(body, body.timezone);
  if (errors.length) throw new ApiError(400, 'Invalid request body.', { details: errors });
  await refuseObjectionable(c, submittedTexts(body));
  await takeSubmitAllowance(c.env, c.var.user._id);
  const doc = submissionDocument(body, times, {
    id: new ObjectId(),
    userId: new ObjectId(c.var.user._id),
    now: new Date(),
  });
  return c.json(submittedEventView(await storeSubmission(c.var.db, doc)), 201);
});
