import { ObjectId } from 'mongodb';
import { ACCOUNT_REFUSALS } from '../../accounts/users/refusals';
import type { AppEnv } from '../../platform/app-env';
import { requireSetting } from '../../platform/config';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { refusal } from '../../platform/http/refusals';
import { admin } from '../../platform/middleware/admin';
import { TestPushAnswer, TestPushBody, VapidKey } from './schema';
import { sendTestPush } from './test-push';

const TAGS = ['notifications'];

const getVapidKey = defineRoute({
  method: 'get',
  path: '/vapid-public-key',
  tags: TAGS,
  summary: 'The VAPID public key web clients subscribe with (public)',
  responses: { 200: jsonResponse(VapidKey, 'The key (VAPID_PUBLIC_KEY)') },
});

const postTestPush = defineRoute({
  method: 'post',
  path: '/notifications/test',
  tags: TAGS,
  summary: "Send a test push to every live token of a user (admin); bypasses the user's preferences and quiet hours",
  middleware: [admin()] as const,
  request: jsonBody(TestPushBody),
  responses: { 200: jsonResponse(TestPushAnswer, 'Sent, with the tickets'), 404: errorResponse('No such account') },
});

/** Mounted at /api/push. */
export const pushRoutes = createRouter<AppEnv>().openapi(getVapidKey, (c) =>
  c.json({ publicKey: requireSetting(c.env, 'VAPID_PUBLIC_KEY') }, 200),
);

/** Mounted at /api/admin. */
export const adminPushRoutes = createRouter<AppEnv>().openapi(postTestPush, async (c) => {
  const { userId, ...test } = c.req.valid('json');
  const outcome = await sendTestPush(c.var.db, c.env, { userId: new ObjectId(userId), ...test });
  if (outcome === 'not-found') throw refusal(ACCOUNT_REFUSALS, outcome);
  return c.json(outcome, 200);
});
