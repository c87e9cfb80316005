import { z } from '@hono/zod-openapi';
import { LIMITS } from '../limits';

/** A link clients open or embed: http or https only, so no `javascript:` or `data:` URL is stored. */
export const WebUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).max(LIMITS.urlMax);
