import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../../platform/app-env';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../../platform/http/openapi';
import { refusal } from '../../../platform/http/refusals';
import { LIMITS } from '../../../platform/limits';
import { admin } from '../../../platform/middleware/admin';
import { publishAfterWrite } from '../../../platform/realtime/publish';
import { QUEUE_REFUSALS } from './refusals';
import { pushRemovalAfterWrite } from './removal-notice';
import { Decision, DecisionAnswer, ItemParams, Queue, QueueQuery } from './schema';
import { answeredFigures, decideItem, openItemFigures, openItems } from './service';
import { contentOf } from './targets';
import { decisionView, queueFiguresView, queueItemView, readQueueRow } from './views';

const TAGS = ['moderation', 'admin'];
const HOUR_MS = 60 * 60 * 1000;
const WEEK_MS = 7 * 24 * HOUR_MS;

const queue = defineRoute({
  method: 'get',
  path: '/moderation/queue',
  tags: TAGS,
  summary:
    'The report queue: open reports grouped by target, most distinct riders first, then oldest; with the age of the oldest item and the share answered within 24 hours',
  middleware: [admin()] as const,
  request: { query: QueueQuery },
  responses: { 200: jsonResponse(Queue, 'The first items of the queue and its figures') },
});

const decide = defineRoute({
  method: 'post',
  path: '/moderation/queue/{targetType}/{targetId}/decision',
  tags: TAGS,
  summary:
    'Decide an item: remove the post or comment, or dismiss; every open report of the target is resolved, the decision logged with its reason',
  middleware: [admin()] as const,
  request: { params: ItemParams, ...jsonBody(Decision) },
  responses: {
    200: jsonResponse(DecisionAnswer, 'The decision'),
    400: errorResponse('`remove` on a rider: dismiss, or suspend the rider'),
    404: errorResponse('No reports about this target'),
    409: errorResponse('Another admin decided the item already'),
  },
});

/** The admins' report queue, mounted under /api/admin. */
export const queueRoutes = createRouter<AppEnv>()
  .openapi(queue, async (c) => {
    const now = new Date();
    const agedBefore = new Date(now.getTime() - LIMITS.report.agedItemHours * HOUR_MS);
    const [rows, open, answered] = await Promise.all([
      openItems(c.var.db, c.req.valid('query').limit),
      openItemFigures(c.var.db, agedBefore),
      answeredFigures(c.var.db, new Date(now.getTime() - WEEK_MS)),
    ]);
    const items = rows.flatMap((row) => readQueueRow(row, now) ?? []);
    const content = await contentOf(
      c.var.db,
      items.map((item) => ({ type: item.targetType, id: item.targetId })),
    );
    return c.json(
      {
        items: items.map((item) => queueItemView(item, content, now)),
        figures: queueFiguresView(open, answered, now),
      },
      200,
    );
  })
  .openapi(decide, async (c) => {
    const { targetType, targetId } = c.req.valid('param');
    const decision = c.req.valid('json');
    const target = { type: targetType, id: new ObjectId(targetId) };
    const outcome = await decideItem(c.var.db, target, decision, new ObjectId(c.var.user._id));
    if (typeof outcome === 'string') throw refusal(QUEUE_REFUSALS, outcome);
    if (outcome.action === 'remove' && outcome.targetType !== 'user') {
      if (outcome.targetType === 'post') {
        const postId = targetId;
        publishAfterWrite(c, { namespace: '/feed', name: 'post:removed', payload: { postId } }, () => ({
          everyoneBut: [],
        }));
      }
      if (outcome.subjectId)
        pushRemovalAfterWrite(c, {
          authorId: outcome.subjectId,
          targetType: outcome.targetType,
          targetId: target.id,
          reason: decision.reason,
        });
    }
    return c.json(decisionView(outcome), 200);
  });
