import { ObjectId } from 'mongodb';
import { eventDedupeKey, eventSlug } from '../../worker/events/catalog/identity';
import { call } from './content';
import type { Api } from './worker-api';

export const DAY_MS = 24 * 60 * 60 * 1000;

let counter = 0;

/** 00:00 UTC of the day `days` after today (negative: before). */
export function utcDay(days: number, now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + days * DAY_MS);
}

/** A stored event as ingestion writes it; `fields` override or add any field, odd ones included. */
export function eventDoc(fields: Record<string, unknown> = {}): Record<string, unknown> & { _id: ObjectId } {
  counter += 1;
  const title = typeof fields.title === 'string' ? fields.title : `Test Jam ${counter}`;
  const startAt = fields.startAt instanceof Date ? fields.startAt : new Date(Date.now() + DAY_MS);
  const city = (fields.venue as { city?: string } | undefined)?.city ?? 'Austin';
  const dedupeKey = `${eventDedupeKey({ title, startAt, city })}|${counter}-${crypto.randomUUID().slice(0, 6)}`;
  const now = new Date();
  return {
    _id: new ObjectId(),
    title,
    slug: eventSlug(title, dedupeKey),
    dedupeKey,
    description: 'A day of riding.',
    sports: ['skateboarding'],
    startAt,
    endAt: null,
    timezone: null,
    timeTba: false,
    status: 'scheduled',
    isOnline: false,
    venue: { name: 'House Park', city, region: 'TX', country: 'US', lat: 30.27, lng: -97.74 },
    organizer: { name: 'Test Org', verified: true },
    source: 'test',
    createdAt: now,
    updatedAt: now,
    lastSeenAt: now,
    ...fields,
  };
}

/** Stores events straight into the test's database, as ingestion would. */
export async function insertEvents(api: Api, docs: Record<string, unknown>[]): Promise<void> {
  if (docs.length) await api.db((db) => db.collection('events').insertMany(docs));
}

export async function clearEvents(api: Api): Promise<void> {
  await api.db((db) => db.collection('events').deleteMany({}));
}

export interface EventPageBody {
  events: { _id: string; title: string | null; startAt: string | null; [key: string]: unknown }[];
  nextCursor: string | null;
  totalCount: number;
}

/** One page of GET /api/events with this query string; fails unless 200. */
export async function listPage(api: Api, query = ''): Promise<EventPageBody> {
  const res = await call(api, 'GET', `/api/events${query ? `?${query}` : ''}`);
  if (res.status !== 200) throw new Error(`list refused: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Every page of the list, following nextCursor. */
export async function listAll(api: Api, query = ''): Promise<EventPageBody[]> {
  const pages: EventPageBody[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams(query);
    if (cursor) params.set('cursor', cursor);
    const page = await listPage(api, params.toString());
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor);
  return pages;
}

/** The ids of the events a list query finds, over every page, in order. */
export async function listedIds(api: Api, query = ''): Promise<string[]> {
  return (await listAll(api, query)).flatMap((page) => page.events.map((event) => event._id));
}

/**
 * An event title no other test's shares, made unique by digits alone: the word filter reads no number as a word, where
 * a random hex run can ("a55e12" as "ass"), and the submission carrying it would be refused.
 */
export const uniqueTitle = (prefix: string) => `${prefix} ${crypto.getRandomValues(new Uint32Array(1))[0]}`;
