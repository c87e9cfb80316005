/**
 * The meaningful actions that count toward weekly progressing riders, each with its value domain
 * (interface spec, Analytics event names and "Meaningful actions").
 * Must equal MEANINGFUL_ACTIONS of worker/analytics/taxonomy.ts, built in parallel; at merge this module imports it.
 */
export const VALUE_DOMAINS = ['progression', 'discovery', 'coaching', 'community'] as const;
export type ValueDomain = (typeof VALUE_DOMAINS)[number];

export const MEANINGFUL_ACTIONS: Record<string, ValueDomain> = {
  trick_added: 'progression',
  trick_attempt_logged: 'progression',
  trick_landed: 'progression',
  spot_saved: 'discovery',
  event_saved: 'discovery',
  event_calendar_added: 'discovery',
  spot_directions_opened: 'discovery',
  // The substantive AI coaching interaction: a completed companion reply (worker/companion/brain.ts records it).
  ai_response_completed: 'coaching',
  post_created: 'community',
  comment_created: 'community',
  rider_followed: 'community',
  homie_connected: 'community',
};

/** The event names of one domain, for a pipeline's `$in`. */
export function actionsOf(domain: ValueDomain): string[] {
  return Object.keys(MEANINGFUL_ACTIONS).filter((name) => MEANINGFUL_ACTIONS[name] === domain);
}

/**
 * An aggregation expression, true for a joined user document `$$user` left out of every metric
 * (interface spec, Ingestion rules: role admin, isBot or analyticsExcluded).
 * Must equal the exclusion rule of worker/analytics/ (built in parallel); at merge this points at it.
 */
export const EXCLUDED_USER_EXPR = {
  $or: [
    { $eq: ['$$user.role', 'admin'] },
    { $eq: ['$$user.isBot', true] },
    { $eq: ['$$user.analyticsExcluded', true] },
  ],
};
