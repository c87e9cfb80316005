import { MEANINGFUL_ACTIONS, VALUE_DOMAINS, type ValueDomain } from '../analytics/taxonomy';

// The meaningful actions and their value domains come from the one taxonomy (worker/growth/analytics/taxonomy.ts).
export { MEANINGFUL_ACTIONS, VALUE_DOMAINS, type ValueDomain };

/** The event names of one domain, for a pipeline's `$in`. */
export function actionsOf(domain: ValueDomain): string[] {
  return Object.entries(MEANINGFUL_ACTIONS).flatMap(([name, of]) => (of === domain ? [name] : []));
}
