import { z } from '@hono/zod-openapi';
import { pathId } from '../../platform/http/ids';
import { pageOf } from '../../platform/http/pagination';
import { LIMITS } from '../../platform/limits';

const ListName = z.string().trim().min(LIMITS.name.min, 'must not be empty').max(LIMITS.name.max);

export const NewSpotList = z.object({ name: ListName }).strict();
export const SpotListChanges = z.object({ name: ListName.optional() }).strict();

export const ListParam = z.object({ listId: pathId('listId') });
export const ListSpotParam = ListParam.extend({
  spotId: pathId('spotId'),
});

export const SpotList = z
  .object({
    _id: z.string(),
    name: z.string(),
    spotIds: z.array(z.string()).describe(`at most ${LIMITS.spotsPerListMax}, in the order they were added`),
    spotCount: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('SpotList');

export const SpotListPage = pageOf(SpotList);

export const DeletedSpotList = z.object({ deleted: z.literal(true), listId: z.string() });
