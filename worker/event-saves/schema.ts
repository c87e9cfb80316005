import { z } from '@hono/zod-openapi';
import { Event } from '../events/schema';
import { pageOf } from '../http/pagination';

export const EventSaveState = z.object({ saved: z.boolean(), eventId: z.string() }).openapi('EventSaveState');

export const SavedEventPage = pageOf(Event).openapi('SavedEventPage');
