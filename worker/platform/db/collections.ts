/**
 * Every collection the service stores, with the type of its documents. The platform names none of the
 * domains' collections: each domain adds its own in its collections.ts (an interface declaration that
 * merges into this one), so a Store has a typed accessor for every collection without the platform
 * importing a domain. The runtime list of names is composed with the domains in worker/data.ts.
 */
// biome-ignore lint/suspicious/noEmptyInterface: the domains' declarations fill it.
export interface Collections {}

export type CollectionName = keyof Collections;

/** Names a collection's document type in a declaration; the value only carries the type. */
export const holds = <T>() => undefined as unknown as T;
