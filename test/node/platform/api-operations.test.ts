import { describe, expect, it } from 'vitest';
import { completeOperations, operationIdOf } from '../../../worker/platform/api-description/operations';

describe('operationIdOf', () => {
  it('joins the method and the path’s words in camelCase, a parameter as By<Name>', () => {
    expect(operationIdOf('post', '/api/admin/socket-shards/{index}/reset')).toBe(
      'postApiAdminSocketShardsByIndexReset',
    );
    expect(operationIdOf('get', '/api/events/{slugOrId}')).toBe('getApiEventsBySlugOrId');
    expect(operationIdOf('get', '/admin/analytics/chart.umd.min.js')).toBe('getAdminAnalyticsChartUmdMinJs');
    expect(operationIdOf('GET', '/socket.io/')).toBe('getSocketIo');
  });
});

describe('completeOperations', () => {
  const pathParameter = () => ({ name: 'index', in: 'path', required: false, schema: { type: ['integer', 'null'] } });

  it('names each operation, keeping a route’s own operationId', () => {
    const document = completeOperations({
      paths: { '/a/{id}': { get: {}, delete: { operationId: 'removeA' }, parameters: [] } },
    });
    expect(document.paths['/a/{id}']).toEqual({
      get: { operationId: 'getAById' },
      delete: { operationId: 'removeA' },
      parameters: [],
    });
  });

  it('refuses two operations under one operationId', () => {
    const paths = { '/a-b': { get: {} }, '/a/b': { get: {} } };
    expect(() => completeOperations({ paths })).toThrow('operationId getAB names both get /a-b and get /a/b');
  });

  it('makes a path parameter required and drops null from its type, leaving other parameters as they are', () => {
    const query = { name: 'limit', in: 'query', required: false, schema: { type: ['integer', 'null'] } };
    const document = completeOperations({
      paths: { '/s/{index}': { post: { parameters: [pathParameter(), query] } } },
    });
    expect(document.paths['/s/{index}']!.post).toMatchObject({
      parameters: [{ ...pathParameter(), required: true, schema: { type: 'integer' } }, query],
    });
  });
});
