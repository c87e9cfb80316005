import { MEANINGFUL_ACTIONS, VALUE_DOMAINS, type ValueDomain } from '../analytics/taxonomy';

// The meaningful actions and their value domains come from the one taxonomy (worker/analytics/taxonomy.ts).
export { MEANINGFUL_ACTIONS, VALUE_DOMAINS, type ValueDomain };

/** The event names of one domain, for a pipeline's `$in`. */
export function actionsOf(domain: ValueDomain): string[] {
  return Object.entries(MEANINGFUL_ACTIONS).flatMap(([name, of]) => (of === domain ? [name] : []));
}

/**
 * An aggregation expression, true for a joined user document `$$user` left out of every metric
 * (interface spec, Ingestion rules: role admin, isBot or analyticsExcluded).
 * The aggregation form of EXCLUDED_ACCOUNT_FILTER (worker/analytics/exclusion.ts), for a joined user.
 */
export const EXCLUDED_USER_EXPR = {
  $or: [
    { $eq: ['$$user.role', 'admin'] },
    { $eq: ['$$user.isBot', true] },
    { $eq: ['$$user.analyticsExcluded', true] },
  ],
};
