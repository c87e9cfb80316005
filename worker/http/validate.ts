import { zValidator } from '@hono/zod-validator';
import type { ZodType } from 'zod';
import type { $ZodError } from 'zod/v4/core';
import { annotate } from '../openapi/annotations';
import { ApiError, type ErrorDetail } from './errors';

type Target = 'json' | 'query' | 'param' | 'header';

const TARGET_LABEL: Record<Target, string> = {
  json: 'request body',
  query: 'query string',
  param: 'path',
  header: 'headers',
};

function toDetails(target: Target, error: $ZodError): ErrorDetail[] {
  return error.issues.map((issue) => ({
    field: issue.path.length ? issue.path.join('.') : TARGET_LABEL[target],
    message: issue.message,
  }));
}

/**
 * Validates one part of the request with a zod schema: a failure is a 400 listing every
 * field and what is wrong with it. The schema is also what the OpenAPI document shows.
 * @example app.post('/users', validate('json', RegisterBody), (c) => c.req.valid('json'))
 */
export function validate<T extends Target, S extends ZodType>(target: T, schema: S) {
  const middleware = zValidator(target, schema, (result) => {
    if (!result.success) {
      throw new ApiError(400, `Invalid ${TARGET_LABEL[target]}.`, toDetails(target, result.error));
    }
  });
  return annotate(middleware, { kind: 'input', target, schema });
}
