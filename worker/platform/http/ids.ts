import { z } from '@hono/zod-openapi';

const HEX_ID = /^[0-9a-fA-F]{24}$/;

/** A 24-hex id as it appears in JSON and paths. */
export const IdString = z.string().regex(HEX_ID, 'must be a 24-character hex id');

/** Whether a value is what IdString accepts, without a parse: for a path read before validation. */
export const isIdString = (value: unknown): value is string => typeof value === 'string' && HEX_ID.test(value);

/** Path params `{ id }` with a valid id. */
export const IdParam = z.object({ id: IdString.openapi({ param: { name: 'id', in: 'path' } }) });

/** A path parameter holding a 24-hex id, documented under its own name (`{spotId}`, `{listId}`, ...). */
export const pathId = (name: string) => IdString.openapi({ param: { name, in: 'path' } });
