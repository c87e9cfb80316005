// The target events model's vocabularies and thresholds (the interface spec, "Event
// (Planned target model)"). Documented in migrations-notes/events-target-model.md.

/** Stored documents in the target shape carry this; older ones are Live records (worker/events/catalog/views.ts reads both). */
export const EVENT_SCHEMA_VERSION = 2;

/** Who an event is for (the interface spec's level[]); invite-only is not a level but `participation.inviteOnly`. */
export const TARGET_LEVELS = ['open', 'amateur', 'pro', 'youth'] as const;

/**
 * `participation.registrationStatus`: upcoming (not open yet), open, waitlist (full, joining the
 * waitlist), closed, not_required (turn up and ride). The Live list filter's three values are a subset.
 */
export const TARGET_REGISTRATION_STATUSES = ['upcoming', 'open', 'waitlist', 'closed', 'not_required'] as const;

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** A source record whose sourceTrust is below this waits for review (pending); at or above it is published. */
export const APPROVAL_TRUST_MIN = 0.5;

/** sourceTrust of an event whose source gives none (connector one; the previous service's records). */
export const DEFAULT_SOURCE_TRUST = 0.5;

/** A published event not re-verified by its source for this long is stale (freshness.staleAfter = lastVerifiedAt + this). */
export const STALE_AFTER_MS = 14 * 24 * 60 * 60 * 1000;

/** A rider's relationship to an event; `none` removes it. */
export const EVENT_RELATIONSHIPS = ['interested', 'going', 'competing', 'watching_online'] as const;
export type EventRelationship = (typeof EVENT_RELATIONSHIPS)[number];

export const NO_RELATIONSHIP_COUNTS = { interested: 0, going: 0, competing: 0, watching_online: 0 };

/** Filter of events the public sees: approved, or a Live record from before approvalStatus existed. */
export const PUBLISHED = { approvalStatus: { $nin: ['pending', 'rejected'] } } as const;

/**
 * sourceTrust of a community submission (worker/events/submissions/): below APPROVAL_TRUST_MIN, so
 * a submission always waits for review, and any source listing of the same event outranks it.
 */
export const COMMUNITY_TRUST = 0.3;

/** The `source` of a community submission. */
export const COMMUNITY_SOURCE = 'community';
