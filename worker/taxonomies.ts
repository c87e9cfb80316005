/** The sports the service knows (interface spec, "What the service does"); schemas, filters and tests import this list. */
export const SPORTS = ['skateboarding', 'snowboarding', 'bmx', 'wakeboarding'] as const;
