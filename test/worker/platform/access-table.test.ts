import { describeAccessChecks } from '../../support/access-checks';
import { createApi } from '../../support/worker-api';

const api = createApi('access-table');

// One line per protected route; a body that would do harm if a refused caller got through.
describeAccessChecks(api, [
  { method: 'GET', path: '/api/users/me', check: 'auth' },
  { method: 'PATCH', path: '/api/users/me', check: 'auth', json: { name: 'Renamed by the access table' } },
  { method: 'GET', path: '/api/admin/users', check: 'admin' },
  { method: 'PATCH', path: '/api/admin/users/:id', check: 'admin', json: { role: 'admin' } },
  { method: 'PATCH', path: '/api/users/:id', check: 'accountOrAdmin', json: { name: 'Renamed by the access table' } },
  { method: 'DELETE', path: '/api/users/:id', check: 'accountOrAdmin' },
  { method: 'POST', path: '/api/media', check: 'auth' },
  { method: 'POST', path: '/api/media/uploads', check: 'auth', json: { type: 'video/mp4', bytes: 1000 } },
  { method: 'GET', path: '/api/media/uploads/:id', check: 'auth' },
  { method: 'PUT', path: '/api/media/uploads/:id/parts/1', check: 'auth' },
  { method: 'POST', path: '/api/media/uploads/:id/complete', check: 'auth' },
]);
