/** The Live plain-text bodies of the access checks; clients match on these exact strings. */
export const ACCESS_TEXT = {
  noToken: 'Access denied. No token provided.',
  denied: 'Access denied.',
  adminOnly: 'Access denied. Admin only.',
  invalidToken: 'Invalid token.',
} as const;

export const UPGRADE_FOR_SPOT_LISTS = 'Upgrade to premium for unlimited spot lists';
