import { z } from '@hono/zod-openapi';

export const SaveState = z.object({ postId: z.string(), saved: z.boolean() }).openapi('SaveState');
