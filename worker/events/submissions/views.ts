import type { z } from '@hono/zod-openapi';
import { targetEventView } from '../catalog/record-view';
import type { EventDoc } from '../documents';
import type { SubmittedEvent } from './schema';

export function submittedEventView(doc: EventDoc): z.infer<typeof SubmittedEvent> {
  return {
    ...targetEventView(doc),
    possibleDuplicateOf: (doc.possibleDuplicateOf ?? []).map((id) => id.toHexString()),
  };
}
