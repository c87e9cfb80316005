import type { Document } from 'mongodb';
import { excludedAccountExpr } from '../analytics/exclusion';
import { COUNTED_MEANINGFUL_ACTIONS_FILTER } from '../analytics/taxonomy';
import { actionsOf, VALUE_DOMAINS } from './meaningful';

/** Aggregation pipelines of the dashboard: every figure is computed in the database, never in the Worker. */

export const DAY_MS = 24 * 60 * 60 * 1000;
export const WEEK_MS = 7 * DAY_MS;

/** `$sum` of `value` over the rows where `condition` holds. */
const sumIf = (condition: unknown, value: unknown = 1) => ({ $sum: { $cond: [condition, value, 0] } });

/** Milliseconds between two dates, as a number (mongod answers Date − Date in milliseconds). */
const msBetween = (later: unknown, earlier: unknown) => ({ $subtract: [later, earlier] });

/** Joins each row's account by `userIdPath` and sets `excluded` by the exclusion rule; a deleted account is not excluded. */
function joinExclusion(userIdPath: string): Document[] {
  return [
    { $lookup: { from: 'users', localField: userIdPath, foreignField: '_id', as: 'account' } },
    {
      $addFields: {
        account: { $arrayElemAt: ['$account', 0] },
        excluded: { $let: { vars: { user: { $arrayElemAt: ['$account', 0] } }, in: excludedAccountExpr('$$user') } },
      },
    },
  ];
}

/**
 * Per rolling window `index` (0 = oldest, each [from + index·7 days, from + (index+1)·7 days)): riders, actions,
 * per-domain riders and actions, and excluded accounts. Served by the index name_occurredAt.
 */
export function wprPipeline(from: Date, to: Date): Document[] {
  const perDomain = Object.fromEntries(
    VALUE_DOMAINS.map((domain) => [domain, sumIf({ $in: ['$_id.name', actionsOf(domain)] }, '$actions')]),
  );
  const domainTotals = Object.fromEntries(
    VALUE_DOMAINS.flatMap((domain) => [
      [`${domain}Riders`, sumIf({ $and: [{ $not: ['$excluded'] }, { $gt: [`$${domain}`, 0] }] })],
      [`${domain}Actions`, sumIf({ $not: ['$excluded'] }, `$${domain}`)],
    ]),
  );
  return [
    // Only the counted copy of each action (worker/growth/analytics/taxonomy.ts), so a client's copy of a server-recorded action never adds.
    { $match: { ...COUNTED_MEANINGFUL_ACTIONS_FILTER, occurredAt: { $gte: from, $lt: to }, userId: { $ne: null } } },
    // Counted per name first, so the per-domain sums run once per rider, window and name rather than per event.
    {
      $group: {
        _id: {
          index: { $floor: { $divide: [msBetween('$occurredAt', from), WEEK_MS] } },
          userId: '$userId',
          name: '$name',
        },
        actions: { $sum: 1 },
      },
    },
    {
      $group: {
        _id: { index: '$_id.index', userId: '$_id.userId' },
        actions: { $sum: '$actions' },
        ...perDomain,
      },
    },
    ...joinExclusion('_id.userId'),
    {
      $group: {
        _id: '$_id.index',
        riders: sumIf({ $not: ['$excluded'] }),
        actions: sumIf({ $not: ['$excluded'] }, '$actions'),
        excluded: sumIf('$excluded'),
        ...domainTotals,
      },
    },
  ];
}

/** Per signup cohort `index` (weeks from `from`): riders and excluded accounts. Served by the index createdAt. */
export function cohortPipeline(from: Date, to: Date): Document[] {
  return [
    { $match: { createdAt: { $gte: from, $lt: to } } },
    { $addFields: { excluded: excludedAccountExpr('$$ROOT') } },
    {
      $group: {
        _id: { $floor: { $divide: [msBetween('$createdAt', from), WEEK_MS] } },
        riders: sumIf({ $not: ['$excluded'] }),
        excluded: sumIf('$excluded'),
      },
    },
  ];
}

/**
 * Per cohort `index` and retention window `window` (1..4: days 1–7, 8–14, 15–21, 22–28 after signup, a day being
 * 24 hours from the signup time): riders with a meaningful action in it. Served by the index name_occurredAt.
 */
export function retentionPipeline(from: Date, to: Date): Document[] {
  return [
    {
      $match: {
        ...COUNTED_MEANINGFUL_ACTIONS_FILTER,
        occurredAt: { $gte: new Date(from.getTime() + DAY_MS), $lt: to },
        userId: { $ne: null },
      },
    },
    // A UTC day holds at most one window edge (edges are 7 days apart), so its first and last action
    // reach every window the day's actions fall in: one row per rider-day instead of one per event.
    {
      $group: {
        _id: { userId: '$userId', day: { $floor: { $divide: [msBetween('$occurredAt', new Date(0)), DAY_MS] } } },
        first: { $min: '$occurredAt' },
        last: { $max: '$occurredAt' },
      },
    },
    { $group: { _id: '$_id.userId', at: { $push: ['$first', '$last'] } } },
    ...joinExclusion('_id'),
    { $match: { excluded: false, 'account.createdAt': { $gte: from, $lt: to } } },
    {
      $project: {
        at: 1,
        createdAt: '$account.createdAt',
        index: { $floor: { $divide: [msBetween('$account.createdAt', from), WEEK_MS] } },
      },
    },
    { $unwind: '$at' },
    { $unwind: '$at' },
    {
      $project: {
        index: 1,
        window: { $ceil: { $divide: [{ $floor: { $divide: [msBetween('$at', '$createdAt'), DAY_MS] } }, 7] } },
      },
    },
    { $match: { window: { $gte: 1, $lte: 4 } } },
    { $group: { _id: { index: '$index', window: '$window', userId: '$_id' } } },
    { $group: { _id: { index: '$_id.index', window: '$_id.window' }, riders: { $sum: 1 } } },
  ];
}

const present = (field: string) => ({
  $and: [{ $eq: [{ $type: `$${field}` }, 'string'] }, { $ne: [`$${field}`, ''] }],
});
// Platform is not among them: the envelope requires it, so an event without one is quarantined, never stored.
const QUALITY_FIELDS = {
  appVersion: present('appVersion'),
  buildNumber: { $isNumber: '$buildNumber' },
  sessionId: present('sessionId'),
  anonymousId: present('anonymousId'),
  userId: { $ne: [{ $ifNull: ['$userId', null] }, null] },
};

/**
 * Authenticated mobile events (sent with a valid token; before the flag existed, those naming a user)
 * received in [from, to): how many, how many carry every envelope field the data-quality target names,
 * identity included, how many lack each one. Served by the index platform_receivedAt.
 */
export function qualityPipeline(from: Date, to: Date): Document[] {
  const fields = Object.keys(QUALITY_FIELDS);
  return [
    {
      $match: {
        platform: { $in: ['ios', 'android'] },
        receivedAt: { $gte: from, $lt: to },
        $or: [{ authenticated: true }, { userId: { $ne: null } }],
      },
    },
    {
      $group: {
        _id: '$userId',
        events: { $sum: 1 },
        complete: sumIf({ $and: Object.values(QUALITY_FIELDS) }),
        ...Object.fromEntries(Object.entries(QUALITY_FIELDS).map(([field, test]) => [field, sumIf({ $not: [test] })])),
      },
    },
    ...joinExclusion('_id'),
    {
      $group: {
        _id: null,
        events: sumIf({ $not: ['$excluded'] }, '$events'),
        complete: sumIf({ $not: ['$excluded'] }, '$complete'),
        excluded: sumIf('$excluded'),
        ...Object.fromEntries(fields.map((field) => [field, sumIf({ $not: ['$excluded'] }, `$${field}`)])),
      },
    },
  ];
}
