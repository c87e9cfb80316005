import type { Document } from 'mongodb';
import { LIMITS } from '../../platform/limits';
import { excludedAccountExpr } from '../analytics/exclusion';
import { COUNTED_MEANINGFUL_ACTIONS_FILTER, type ValueDomain } from '../analytics/taxonomy';
import { actionsOf } from '../dashboard/meaningful';

const sumIf = (condition: unknown) => ({ $sum: { $cond: [condition, 1, 0] } });

/**
 * The unit of an exposure or an event: the rider, or without one the installation (an exposure's installationId, an
 * event's anonymousId). An ObjectId and a string never compare equal, so riders and installations cannot collide.
 */
const UNIT = { $ifNull: ['$userId', { $ifNull: ['$installationId', '$anonymousId'] }] };

/**
 * Per variant of one experiment: exposed units, converted units and excluded units. A unit is a rider or, never
 * signed in there, an installation (docs/experiments.md); it converts with a counted meaningful action of `domain`
 * at or after its first exposure and before 7 days after it, by the action's occurredAt (server events carry their
 * own time there). Exposures and actions meet in one grouping by unit, so no per-unit lookup runs; `from`..`to`
 * bounds the actions read to the span any unit's window can reach (served by the index name_occurredAt).
 */
export function resultsPipeline(experimentKey: string, domain: ValueDomain, from: Date, to: Date): Document[] {
  const windowMs = LIMITS.experiments.conversionWindowMs;
  return [
    // An adopted installation counts as the rider who kept its variant (the rider's own row), never twice.
    { $match: { experimentKey, adoptedBy: { $exists: false } } },
    // Exposures and actions go through unprojected (each stage costs per document on the dev database): only
    // exposures carry variant and firstExposedAt, only actions occurredAt.
    {
      $unionWith: {
        coll: 'analytics_events',
        pipeline: [
          {
            $match: {
              ...COUNTED_MEANINGFUL_ACTIONS_FILTER,
              name: { $in: actionsOf(domain) },
              occurredAt: { $gte: from, $lt: to },
            },
          },
        ],
      },
    },
    {
      $group: {
        _id: UNIT,
        variant: { $max: '$variant' },
        first: { $min: '$firstExposedAt' },
        at: { $push: '$occurredAt' },
      },
    },
    // Only exposed units count: a unit with actions and no exposure is not in the experiment.
    { $match: { variant: { $type: 'string' } } },
    {
      $project: {
        variant: 1,
        converted: {
          $anyElementTrue: [
            {
              $map: {
                input: '$at',
                as: 't',
                in: { $and: [{ $gte: ['$$t', '$first'] }, { $lt: ['$$t', { $add: ['$first', windowMs] }] }] },
              },
            },
          ],
        },
      },
    },
    { $lookup: { from: 'users', localField: '_id', foreignField: '_id', as: 'account' } },
    {
      $addFields: {
        excluded: { $let: { vars: { user: { $arrayElemAt: ['$account', 0] } }, in: excludedAccountExpr('$$user') } },
      },
    },
    {
      $group: {
        _id: '$variant',
        units: sumIf({ $not: ['$excluded'] }),
        converted: sumIf({ $and: [{ $not: ['$excluded'] }, '$converted'] }),
        excluded: sumIf('$excluded'),
      },
    },
  ];
}
