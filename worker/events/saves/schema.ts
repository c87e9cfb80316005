import { z } from '@hono/zod-openapi';
import { pageOf } from '../../platform/http/pagination';
import { Event } from '../catalog/schema';

export const EventSaveState = z.object({ saved: z.boolean(), eventId: z.string() }).openapi('EventSaveState');

export const SavedEventPage = pageOf(Event).openapi('SavedEventPage');
