import type { RouterRoute } from 'hono/types';
import { type ZodType, z } from 'zod';
import { type RouteDoc, readAnnotation, type SecurityScheme } from './annotations';

type JsonSchema = Record<string, unknown>;

function toJsonSchema(schema: ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** `/api/spots/:spotId` → `/api/spots/{spotId}` */
function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function parameters(schema: ZodType, where: 'query' | 'path' | 'header') {
  const json = toJsonSchema(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: property,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}

const SECURITY_SCHEMES: Record<SecurityScheme, JsonSchema> = {
  authToken: {
    type: 'apiKey',
    in: 'header',
    name: 'x-auth-token',
    description: 'Session JWT, as returned by sign-in.',
  },
  bearerToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Session JWT, for the account-or-admin check.',
  },
};

interface Operation {
  doc?: RouteDoc;
  inputs: { target: string; schema: ZodType }[];
  security: SecurityScheme[];
}

/** Collects what each route's middleware said about itself, per method and path. */
function collectOperations(routes: RouterRoute[]): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const route of routes) {
    if (route.method === 'ALL' || route.path.includes('*')) continue;
    const key = `${route.method.toLowerCase()} ${route.path}`;
    const operation = operations.get(key) ?? { inputs: [], security: [] };
    const annotation = readAnnotation(route.handler);
    if (annotation?.kind === 'doc') operation.doc = annotation.doc;
    if (annotation?.kind === 'input') operation.inputs.push(annotation);
    if (annotation?.kind === 'security') operation.security.push(annotation.scheme);
    operations.set(key, operation);
  }
  return operations;
}

function buildOperation(operation: Operation, path: string) {
  const doc = operation.doc;
  const result: JsonSchema = {
    summary: doc?.summary ?? path,
    tags: doc?.tags ?? [],
    ...(doc?.description ? { description: doc.description } : {}),
  };
  const params: JsonSchema[] = [];
  for (const input of operation.inputs) {
    if (input.target === 'json') {
      result.requestBody = {
        required: true,
        content: { 'application/json': { schema: toJsonSchema(input.schema, 'input') } },
      };
    } else {
      params.push(
        ...parameters(input.schema, input.target === 'param' ? 'path' : (input.target as 'query' | 'header')),
      );
    }
  }
  for (const name of path.match(/:([A-Za-z0-9_]+)/g) ?? []) {
    const bare = name.slice(1);
    if (!params.some((p) => p.in === 'path' && p.name === bare)) {
      params.push({ name: bare, in: 'path', required: true, schema: { type: 'string' } });
    }
  }
  if (params.length) result.parameters = params;
  if (operation.security.length) result.security = operation.security.map((scheme) => ({ [scheme]: [] }));
  const responses: Record<string, JsonSchema> = {};
  for (const [status, response] of Object.entries(doc?.responses ?? { 200: { description: 'OK' } })) {
    const content = response.text
      ? { 'text/plain': { schema: { type: 'string' } } }
      : response.schema
        ? { 'application/json': { schema: toJsonSchema(response.schema, 'output') } }
        : undefined;
    responses[status] = { description: response.description, ...(content ? { content } : {}) };
  }
  if (operation.inputs.length && !responses['400']) {
    responses['400'] = {
      description: 'Validation failed',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  result.responses = responses;
  return result;
}

/** The OpenAPI 3.1 document of every concrete route the app serves. */
export function buildOpenApiDocument(routes: RouterRoute[], info: { version: string }) {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const [key, operation] of collectOperations(routes)) {
    const [method, path] = key.split(' ') as [string, string];
    const item = paths[openApiPath(path)] ?? {};
    item[method] = buildOperation(operation, path);
    paths[openApiPath(path)] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Rider service API',
      version: info.version,
      description:
        'Backend of the action-sports rider app. JSON errors are `{error, details?}`; the Live access checks answer in plain text.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: { type: 'string' },
            details: {
              type: 'array',
              items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } },
            },
          },
        },
      },
    },
  };
}
