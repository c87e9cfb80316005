/**
 * The Live plain-text bodies of the access checks (interface spec); clients match on these
 * exact strings. The checks in worker/platform/middleware/ answer with them and document them.
 */
export const ACCESS_TEXT = {
  noToken: 'Access denied. No token provided.',
  denied: 'Access denied.',
  adminOnly: 'Access denied. Admin only.',
  invalidToken: 'Invalid token.',
} as const;
