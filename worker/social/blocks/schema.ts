import { z } from '@hono/zod-openapi';
import { PublicUser } from '../../accounts/users/schema';
import { pathId } from '../../platform/http/ids';
import { pageOf } from '../../platform/http/pagination';

export const BlockParam = z.object({ userId: pathId('userId') });

export const BlockState = z.object({ userId: z.string(), blocked: z.boolean() }).openapi('BlockState');

export const BlockedUser = PublicUser.extend({ blockedAt: z.string() }).openapi('BlockedUser');
export const BlockPage = pageOf(BlockedUser);
