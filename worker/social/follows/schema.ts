import { z } from '@hono/zod-openapi';
import { PublicUser } from '../../accounts/users/schema';
import { pathId } from '../../platform/http/ids';
import { pageOf } from '../../platform/http/pagination';

export const RiderParam = z.object({ id: pathId('id') });

export const FollowState = z
  .object({
    following: z.boolean().describe('whether you follow the rider now'),
    homie: z.boolean().describe('whether you and the rider follow each other'),
    followerCount: z.number().int().describe("the rider's followers"),
    followingCount: z.number().int().describe('the riders the rider follows'),
  })
  .openapi('FollowState');

export const ListedRider = PublicUser.extend({
  following: z.boolean().optional().describe('whether you follow this rider; only with a valid token'),
}).openapi('ListedRider');
export const ListedRiderPage = pageOf(ListedRider);
export const HomiePage = pageOf(PublicUser);
