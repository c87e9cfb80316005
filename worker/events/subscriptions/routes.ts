import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { toReadPage } from '../../platform/http/read-pages';
import { refusal } from '../../platform/http/refusals';
import { LIMITS } from '../../platform/limits';
import { auth } from '../../platform/middleware/auth';
import { readEventSubscription } from '../stored-subscription';
import { SUBSCRIPTION_REFUSALS } from './refusals';
import {
  DeletedEventSubscription,
  EventSubscription,
  EventSubscriptionChanges,
  EventSubscriptionPage,
  NewEventSubscription,
  type SubscriptionInput,
  SubscriptionPageQuery,
  SubscriptionParam,
} from './schema';
import {
  changeSubscription,
  createSubscription,
  deleteSubscription,
  findSubscription,
  hasCriterion,
  listSubscriptions,
  newSubscriptionFields,
  organizerExists,
} from './service';
import { eventSubscriptionView } from './views';

const TAGS = ['events'];
const MAX = LIMITS.eventNotifications.subscriptionsPerUser;
const DIGEST =
  'When a newly published event matches, you get at most one digest notification per subscription per rolling 24 hours (push category `events`, docs/event-notifications.md); a change to a matching event (time, venue, cancellation, registration) is notified too.';
const theSubscription = jsonResponse(EventSubscription, 'The subscription');
const noSubscription = errorResponse('No such subscription of yours (another rider’s answers the same)');
const badFields = errorResponse('A field is wrong or unknown (each named in details), or no criterion is given');

const list = defineRoute({
  method: 'get',
  path: '/',
  tags: TAGS,
  summary: 'Your event subscriptions (saved filters), newest first',
  description: DIGEST,
  middleware: [auth()] as const,
  request: { query: SubscriptionPageQuery },
  responses: { 200: jsonResponse(EventSubscriptionPage, 'A page of your subscriptions') },
});

const create = defineRoute({
  method: 'post',
  path: '/',
  tags: TAGS,
  summary: `Subscribe to a filter of events (up to ${MAX} per rider)`,
  description: DIGEST,
  middleware: [auth()] as const,
  request: jsonBody(NewEventSubscription),
  responses: {
    201: jsonResponse(EventSubscription, 'Created'),
    400: badFields,
    409: errorResponse(`You already hold ${MAX} subscriptions; delete one first`),
  },
});

const getOne = defineRoute({
  method: 'get',
  path: '/{id}',
  tags: TAGS,
  summary: 'One of your event subscriptions',
  middleware: [auth()] as const,
  request: { params: SubscriptionParam },
  responses: { 200: theSubscription, 404: noSubscription },
});

const patch = defineRoute({
  method: 'patch',
  path: '/{id}',
  tags: TAGS,
  summary: 'Change some fields of a subscription ([] or null removes a criterion; one must remain)',
  middleware: [auth()] as const,
  request: { params: SubscriptionParam, ...jsonBody(EventSubscriptionChanges) },
  responses: {
    200: theSubscription,
    400: badFields,
    404: noSubscription,
    409: errorResponse('Changed by another request meanwhile; try again'),
  },
});

const remove = defineRoute({
  method: 'delete',
  path: '/{id}',
  tags: TAGS,
  summary: 'Delete one of your subscriptions (its pending digest is dropped)',
  middleware: [auth()] as const,
  request: { params: SubscriptionParam },
  responses: { 200: jsonResponse(DeletedEventSubscription, 'Deleted'), 404: noSubscription },
});

async function checkOrganizer(c: { var: AppEnv['Variables'] }, input: SubscriptionInput) {
  if (input.organizerId && !(await organizerExists(c.var.db, new ObjectId(input.organizerId))))
    throw refusal(SUBSCRIPTION_REFUSALS, 'unknown-organizer');
}

const ids = (c: { var: { user: { _id: string } } }, id: string) => ({
  userId: new ObjectId(c.var.user._id),
  id: new ObjectId(id),
});

/** The signed-in rider's event subscriptions, mounted under /api/event-subscriptions. */
export const eventSubscriptionRoutes = createRouter<AppEnv>()
  .openapi(list, async (c) => {
    const { limit, cursor } = c.req.valid('query');
    const rows = await listSubscriptions(c.var.db, new ObjectId(c.var.user._id), { limit, cursor });
    const page = toReadPage('eventSubscriptions', rows, limit, (row) => {
      const sub = readEventSubscription(row);
      return sub && eventSubscriptionView(sub);
    });
    return c.json(page, 200);
  })
  .openapi(create, async (c) => {
    const input = c.req.valid('json');
    if (!hasCriterion(newSubscriptionFields(input))) throw refusal(SUBSCRIPTION_REFUSALS, 'no-criterion');
    await checkOrganizer(c, input);
    const created = await createSubscription(c.var.db, new ObjectId(c.var.user._id), input);
    if (created === 'limit') throw refusal(SUBSCRIPTION_REFUSALS, created);
    return c.json(eventSubscriptionView(created), 201);
  })
  .openapi(getOne, async (c) => {
    const { userId, id } = ids(c, c.req.valid('param').id);
    const sub = await findSubscription(c.var.db, userId, id);
    if (!sub) throw refusal(SUBSCRIPTION_REFUSALS, 'not-found');
    return c.json(eventSubscriptionView(sub), 200);
  })
  .openapi(patch, async (c) => {
    const { userId, id } = ids(c, c.req.valid('param').id);
    const input = c.req.valid('json');
    await checkOrganizer(c, input);
    const outcome = await changeSubscription(c.var.db, userId, id, input);
    if (typeof outcome === 'string') throw refusal(SUBSCRIPTION_REFUSALS, outcome);
    return c.json(eventSubscriptionView(outcome), 200);
  })
  .openapi(remove, async (c) => {
    const { userId, id } = ids(c, c.req.valid('param').id);
    if (!(await deleteSubscription(c.var.db, userId, id))) throw refusal(SUBSCRIPTION_REFUSALS, 'not-found');
    return c.json({ deleted: true as const, id: id.toHexString() }, 200);
  });
