import { z } from '@hono/zod-openapi';

/** A 24-hex id as it appears in JSON and paths. */
export const IdString = z.string().regex(/^[0-9a-fA-F]{24}$/, 'must be a 24-character hex id');

/** Path params `{ id }` with a valid id. */
export const IdParam = z.object({ id: IdString.openapi({ param: { name: 'id', in: 'path' } }) });

/** A path parameter holding a 24-hex id, documented under its own name (`{spotId}`, `{listId}`, ...). */
export const pathId = (name: string) => IdString.openapi({ param: { name, in: 'path' } });
