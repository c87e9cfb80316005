import { z } from '@hono/zod-openapi';
import { LIMITS } from '../limits';

/** A link clients open or embed: http or https only, so no `javascript:` or `data:` URL is stored. */
export const WebUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).max(LIMITS.urlMax);

/**
 * A stored link as clients may see it: one that is not http(s) (stored before WebUrl held that field to it) is
 * served as absent, so no `javascript:` link reaches a client (migrations-notes/web-url-image-uri.md cleans them).
 */
export function shownWebUrl(stored: string | undefined): string | undefined {
  return stored && WebUrl.safeParse(stored).success ? stored : undefined;
}
