import type { AppEnv } from '../../platform/app-env';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { refusal } from '../../platform/http/refusals';
import { admin } from '../../platform/middleware/admin';
import { EXPERIMENT_REFUSALS } from './refusals';
import { Experiment, ExperimentCreate, ExperimentList, ExperimentPatch, ExperimentResults, KeyParam } from './schema';
import { createExperiment, experimentResults, findExperiment, listExperiments, patchExperiment } from './service';
import { experimentView, resultsView } from './views';

const TAGS = ['admin', 'experiments'];
const noExperiment = errorResponse('No experiment with this key');

const list = defineRoute({
  method: 'get',
  path: '/experiments',
  tags: TAGS,
  summary: 'Every experiment, newest first',
  middleware: [admin()] as const,
  responses: { 200: jsonResponse(ExperimentList, 'The experiments') },
});

const create = defineRoute({
  method: 'post',
  path: '/experiments',
  tags: TAGS,
  summary: 'Define an experiment: variants (control first) with weights summing to 100, platforms, primary metric',
  middleware: [admin()] as const,
  request: jsonBody(ExperimentCreate),
  responses: { 201: jsonResponse(Experiment, 'Created'), 409: errorResponse('The key is taken') },
});

const getOne = defineRoute({
  method: 'get',
  path: '/experiments/{key}',
  tags: TAGS,
  summary: 'One experiment',
  middleware: [admin()] as const,
  request: { params: KeyParam },
  responses: { 200: jsonResponse(Experiment, 'The experiment'), 404: noExperiment },
});

const patch = defineRoute({
  method: 'patch',
  path: '/experiments/{key}',
  tags: TAGS,
  summary: 'Change an experiment: start, stop or resume it; its variants only while draft',
  middleware: [admin()] as const,
  request: { params: KeyParam, ...jsonBody(ExperimentPatch) },
  responses: {
    200: jsonResponse(Experiment, 'The experiment as stored'),
    404: noExperiment,
    409: errorResponse('Variants of an experiment that has run, or a status it cannot move to'),
  },
});

const results = defineRoute({
  method: 'get',
  path: '/experiments/{key}/results',
  tags: TAGS,
  summary: 'Per variant: exposed and converted units, rate, difference to control (Wald 95%), sample-ratio check',
  middleware: [admin()] as const,
  request: { params: KeyParam },
  responses: { 200: jsonResponse(ExperimentResults, 'The results (docs/experiments.md)'), 404: noExperiment },
});

/** Experiment administration and results, mounted under /api/admin. */
export const adminExperimentRoutes = createRouter<AppEnv>()
  .openapi(list, async (c) => c.json({ items: (await listExperiments(c.var.db)).map(experimentView) }, 200))
  .openapi(create, async (c) => {
    const created = await createExperiment(c.var.db, c.req.valid('json'));
    if (!created) throw refusal(EXPERIMENT_REFUSALS, 'exists');
    return c.json(experimentView(created), 201);
  })
  .openapi(getOne, async (c) => {
    const experiment = await findExperiment(c.var.db, c.req.valid('param').key);
    if (!experiment) throw refusal(EXPERIMENT_REFUSALS, 'missing');
    return c.json(experimentView(experiment), 200);
  })
  .openapi(patch, async (c) => {
    const patched = await patchExperiment(c.var.db, c.req.valid('param').key, c.req.valid('json'));
    if (patched.outcome !== 'changed') throw refusal(EXPERIMENT_REFUSALS, patched);
    return c.json(experimentView(patched.experiment), 200);
  })
  .openapi(results, async (c) => {
    const found = await experimentResults(c.var.db, c.req.valid('param').key);
    if (!found) throw refusal(EXPERIMENT_REFUSALS, 'missing');
    return c.json(resultsView(found), 200);
  });
