import type { Notification } from '../../notifications/push/deliver';
import { fitBody, fitTitle } from '../../notifications/push/text';
import type { EventDoc, EventNotificationJobDoc, EventSubscriptionDoc } from '../documents';

// What an event notification says (docs/event-notifications.md): pure, so the wording is unit-tested.

/** The app-relative deep link of an event (the Live detail route takes a slug or an id). */
export const eventDeepLink = (event: Pick<EventDoc, '_id' | 'slug'>) =>
  `/events/${event.slug || event._id.toHexString()}`;

/** A subscription's deep link: the app lists the subscription's filter applied to events. */
export const subscriptionDeepLink = (subscriptionId: string) => `/event-subscriptions/${subscriptionId}`;

/** Ids a digest's data carries at most, so the payload stays far below the push service's 4 KB. */
export const DIGEST_IDS_IN_DATA = 10;

/** An instant as the event's own local time when it has a zone (UTC otherwise), e.g. "Sat 6 Jun, 14:00". */
export function localWhen(at: Date, timeZone: string | null | undefined): string {
  const zone = timeZone ?? 'UTC';
  try {
    const text = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(at);
    return zone === 'UTC' ? `${text} UTC` : text;
  } catch {
    return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  }
}

const REGISTRATION_TEXT: Record<string, string> = {
  upcoming: 'opens soon',
  open: 'now open',
  waitlist: 'waitlist only',
  closed: 'closed',
  not_required: 'not needed',
};

/** One line saying what changed, from the event as it is now (the newest value is what a rider needs). */
export function changeLine(fields: readonly string[], event: Partial<EventDoc>): string {
  if (fields.includes('status') && event.status === ('cancelled' as never)) return 'Cancelled.';
  const parts: string[] = [];
  if (fields.includes('status')) parts.push(`Status: ${event.status ?? 'updated'}`);
  if (fields.includes('startAt') && event.startAt) parts.push(`Now starts ${localWhen(event.startAt, event.timezone)}`);
  else if (fields.includes('startAt') || fields.includes('endAt')) parts.push('Dates changed');
  if (fields.includes('venue')) {
    const where = [event.venue?.name, event.venue?.city].filter(Boolean).join(', ');
    parts.push(where ? `New venue: ${where}` : 'Venue changed');
  }
  if (fields.includes('registrationStatus')) {
    const status = String((event.participation as { registrationStatus?: string } | null)?.registrationStatus ?? '');
    parts.push(`Registration ${REGISTRATION_TEXT[status] ?? 'changed'}`);
  }
  return parts.join(' · ') || 'Details changed';
}

/** A change to one event, for one rider (one per change however many reasons they have). */
export function changeNotification(
  job: Pick<EventNotificationJobDoc, 'jobKey' | 'fields' | 'changeKey'>,
  event: Partial<EventDoc> & Pick<EventDoc, '_id' | 'slug'>,
): Notification {
  const eventId = event._id.toHexString();
  return {
    title: fitTitle(event.title || 'Event update'),
    body: fitBody(changeLine(job.fields ?? [], event)),
    threadId: `event-${eventId}`,
    channelId: 'events',
    data: {
      url: eventDeepLink(event),
      category: 'events',
      kind: 'change',
      eventId,
      fields: (job.fields ?? []).join(','),
      idempotencyKey: job.jobKey,
    },
  };
}

/** One subscription's digest of newly published events, soonest first. */
export function digestNotification(
  job: Pick<EventNotificationJobDoc, 'jobKey'>,
  subscription: Pick<EventSubscriptionDoc, '_id' | 'name'>,
  events: (Partial<EventDoc> & Pick<EventDoc, '_id' | 'slug'>)[],
): Notification {
  const subscriptionId = subscription._id.toHexString();
  const [first] = events;
  const body =
    events.length === 1 && first
      ? `${first.title ?? 'New event'}${first.startAt ? ` · ${localWhen(first.startAt, first.timezone)}` : ''}`
      : `${events.length} new events: ${events
          .slice(0, 3)
          .map((event) => event.title)
          .filter(Boolean)
          .join(', ')}`;
  return {
    title: fitTitle(subscription.name || 'New events for you'),
    body: fitBody(body),
    threadId: `event-subscription-${subscriptionId}`,
    channelId: 'events',
    data: {
      url: events.length === 1 && first ? eventDeepLink(first) : subscriptionDeepLink(subscriptionId),
      category: 'events',
      kind: 'digest',
      subscriptionId,
      eventCount: events.length,
      eventIds: events
        .slice(0, DIGEST_IDS_IN_DATA)
        .map((event) => event._id.toHexString())
        .join(','),
      idempotencyKey: job.jobKey,
    },
  };
}
