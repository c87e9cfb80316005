import type { AppEnv } from '../../platform/app-env';
import { createRouter, defineRoute, jsonResponse } from '../../platform/http/openapi';
import { tokenCaller } from '../../platform/tokens/service';
import { AssignmentQuery, Assignments } from './schema';
import { assignmentsFor } from './service';

const getAssignments = defineRoute({
  method: 'get',
  path: '/assignments',
  tags: ['experiments'],
  summary: 'The variant of each running experiment of the platform for this installation, or the signed-in rider',
  description:
    'Auth optional: with a valid `x-auth-token` the unit is the rider (the same variant on every device), else the installation. A variant the installation was already exposed to is kept at sign-in; excluded accounts get `control`. Report what was shown with the analytics event `experiment_exposed`. See docs/experiments.md.',
  security: [{}, { 'x-auth-token': [] }],
  request: { query: AssignmentQuery },
  responses: { 200: jsonResponse(Assignments, 'Experiment key → variant') },
});

/** Variant assignment, mounted under /api/experiments. */
export const experimentRoutes = createRouter<AppEnv>().openapi(getAssignments, async (c) => {
  const caller = await tokenCaller(c.env, c.var.db, c.req.header('x-auth-token'));
  const assignments = await assignmentsFor(c.var.db, { ...c.req.valid('query'), userId: caller?.userId ?? null });
  return c.json({ assignments }, 200);
});
