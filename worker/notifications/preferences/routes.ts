import { ObjectId } from 'mongodb';
import { ACCOUNT_REFUSALS } from '../../accounts/users/refusals';
import type { AppEnv } from '../../platform/app-env';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
import { Preferences, PreferencesPatch } from './schema';
import { findPreferences, updatePreferences } from './service';
import { preferencesView } from './views';

const TAGS = ['notifications'];
const thePreferences = jsonResponse(Preferences, 'Your notification preferences, defaults filled in');
const noAccount = errorResponse('No such account');

const getPreferences = defineRoute({
  method: 'get',
  path: '/me/notification-preferences',
  tags: TAGS,
  summary: 'Your notification preferences',
  middleware: [auth()] as const,
  responses: { 200: thePreferences, 404: noAccount },
});

const patchPreferences = defineRoute({
  method: 'patch',
  path: '/me/notification-preferences',
  tags: TAGS,
  summary: 'Change some notification preferences (deep merge: fields left out keep their value)',
  middleware: [auth()] as const,
  request: jsonBody(PreferencesPatch),
  responses: { 200: thePreferences, 404: noAccount },
});

/** Mounted at /api/users. */
export const notificationPreferenceRoutes = createRouter<AppEnv>()
  .openapi(getPreferences, async (c) => {
    const outcome = await findPreferences(c.var.db, new ObjectId(c.var.user._id));
    if (outcome === 'not-found') throw refusal(ACCOUNT_REFUSALS, outcome);
    return c.json(preferencesView(outcome), 200);
  })
  .openapi(patchPreferences, async (c) => {
    const outcome = await updatePreferences(c.var.db, new ObjectId(c.var.user._id), c.req.valid('json'));
    if (outcome === 'not-found') throw refusal(ACCOUNT_REFUSALS, outcome);
    return c.json(preferencesView(outcome), 200);
  });
