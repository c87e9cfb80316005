import { z } from '@hono/zod-openapi';
import { PageQuery, pageOf } from '../../platform/http/pagination';
import { TargetEvent } from '../catalog/record-schema';
import { EVENT_RELATIONSHIPS } from '../catalog/vocabulary';

const Counts = z
  .object(Object.fromEntries(EVENT_RELATIONSHIPS.map((name) => [name, z.number().int()])))
  .openapi('EventRelationshipCounts');

export const RelationshipBody = z
  .object({
    relationship: z
      .enum([...EVENT_RELATIONSHIPS, 'none'])
      .describe('one per rider and event; a new one replaces the old; none removes it'),
  })
  .openapi('EventRelationshipChange');

export const RelationshipState = z
  .object({ relationship: z.enum([...EVENT_RELATIONSHIPS, 'none']), relationshipCounts: Counts })
  .openapi('EventRelationshipState');

export const MyEventsQuery = PageQuery.extend({
  relationship: z.enum(EVENT_RELATIONSHIPS).optional().describe('only this relationship; all when absent'),
});

export const MyEventsPage = pageOf(z.object({ relationship: z.enum(EVENT_RELATIONSHIPS), event: TargetEvent })).openapi(
  'MyEventsPage',
);
