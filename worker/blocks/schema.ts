import { z } from '@hono/zod-openapi';
import { pathId } from '../http/ids';
import { pageOf } from '../http/pagination';
import { PublicUser } from '../users/schema';

export const BlockParam = z.object({ userId: pathId('userId') });

export const BlockState = z.object({ userId: z.string(), blocked: z.boolean() }).openapi('BlockState');

export const BlockedUser = PublicUser.extend({ blockedAt: z.string() }).openapi('BlockedUser');
export const BlockPage = pageOf(BlockedUser);
