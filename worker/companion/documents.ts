import type { ObjectId } from 'mongodb';
import type { StoredDoc } from '../platform/db/stored-doc';

export interface ChatMessageDoc extends StoredDoc {
  userId: ObjectId;
  role: 'user' | 'assistant';
  text: string;
}

/**
 * The companion's web DM turns (POST /api/dm, worker/companion/chat/transcript.ts) share dm_messages with
 * conversation messages: they carry `companion: true` and no conversationId, so no conversation query
 * ever matches them; `userId` is the rider on both the rider's and the companion's rows.
 */
export interface CompanionDirectMessageDoc extends ChatMessageDoc {
  companion: true;
}

export type CompanionStage = 'stranger' | 'acquaintance' | 'friend' | 'close_friend' | 'bestie';

/** One per rider (unique userId); written only by worker/companion/chat/profile.ts in one atomic update per turn. */
export interface CompanionProfileDoc extends StoredDoc {
  userId: ObjectId;
  interactionCount: number;
  /** Follows interactionCount (worker/companion/chat/stages.ts). */
  stage: CompanionStage;
  /** Newest last, deduplicated case-insensitively, capped at LIMITS.companion.factsMax. */
  facts: string[];
  /** What the rider wants to be called; the account name until they say otherwise. */
  name?: string;
  sports: string[];
  lastMood?: 'stoked' | 'frustrated' | 'tired' | 'nervous' | 'neutral';
  lastTurnAt: Date;
  /** When the current AI session began (LIMITS.companion.sessionGapMs). */
  sessionStartedAt: Date;
  /**
   * The turn that began it, an id made for each turn: two turns in the same millisecond share a clock reading, so
   * only this tells which of them started the session.
   */
  sessionStartedBy?: ObjectId;
}
