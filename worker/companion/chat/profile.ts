import { type Document, ObjectId } from 'mongodb';
import { onDuplicateKey } from '../../platform/db/errors';
import { anyIdOf } from '../../platform/db/id-match';
import type { Store } from '../../platform/db/store';
import { storedNumber, storedTexts } from '../../platform/db/stored-expressions';
import { readOne, sameId } from '../../platform/db/stored-values';
import { LIMITS } from '../../platform/limits';
import type { CompanionProfileDoc } from '../documents';
import { readCompanionPersona } from '../stored';
import { stageExpression } from './stages';

// Every query on companion_profiles.

export type Mood = NonNullable<CompanionProfileDoc['lastMood']>;

/** What one turn teaches the companion about the rider (the remember tool and the message's mood). */
export interface TurnLearnings {
  facts: string[];
  name?: string;
  sports: string[];
  mood: Mood;
}

/**
 * The rider's profile, also one stored with their id as a hex string; the ObjectId one first should both exist
 * (ObjectIds sort above strings). recordTurn picks the same one and stores its id as an ObjectId.
 */
const profileOf = (userId: ObjectId) => ({ filter: { userId: anyIdOf(userId) }, sort: { userId: -1 } as const });

/** The persona the rider's profile gives the companion; undefined before the first turn. */
export async function findPersona(store: Store, userId: ObjectId) {
  const { filter, sort } = profileOf(userId);
  return readOne('companion_profiles', await store.companion_profiles.findOne(filter, { sort }), readCompanionPersona);
}

/** Facts as stored: trimmed, one space between words, cut to the cap, no repeats ignoring case (the last kept). */
export function normaliseFacts(facts: string[]): string[] {
  const seen = new Map<string, string>();
  for (const raw of facts) {
    const fact = raw.replace(/\s+/g, ' ').trim().slice(0, LIMITS.companion.factMax);
    if (!fact) continue;
    seen.delete(fact.toLowerCase());
    seen.set(fact.toLowerCase(), fact);
  }
  return [...seen.values()];
}

/**
 * One aggregation-pipeline update applies the whole turn, so two turns at once never lose a
 * count: the count goes up by one, the stage follows the new count, new facts replace equal
 * old ones (ignoring case) and the newest `factsMax` stay, sports are merged, and a turn after
 * a quiet `sessionGapMs` starts a new session.
 */
function turnUpdate(
  userId: ObjectId,
  learnings: TurnLearnings,
  accountName: string | undefined,
  now: Date,
  turn: ObjectId,
): Document[] {
  const facts = normaliseFacts(learnings.facts);
  // Read as stored by older code too: a count as a numeric string, facts and sports as one text or mixed lists.
  const count = { $add: [storedNumber('$interactionCount'), 1] };
  const keptFacts = {
    $filter: {
      input: storedTexts('$facts'),
      as: 'fact',
      cond: { $not: [{ $in: [{ $toLower: '$$fact' }, { $literal: facts.map((fact) => fact.toLowerCase()) }] }] },
    },
  };
  const quietSince = new Date(now.getTime() - LIMITS.companion.sessionGapMs);
  const startsSession = { $lt: [{ $ifNull: ['$lastTurnAt', new Date(0)] }, quietSince] };
  return [
    {
      $set: {
        interactionCount: count,
        stage: stageExpression(count),
        facts: { $slice: [{ $concatArrays: [keptFacts, { $literal: facts }] }, -LIMITS.companion.factsMax] },
        sports: { $setUnion: [storedTexts('$sports'), { $literal: learnings.sports }] },
        name: learnings.name
          ? { $literal: learnings.name }
          : { $cond: [{ $eq: [{ $type: '$name' }, 'string'] }, '$name', { $literal: accountName ?? null }] },
        lastMood: { $literal: learnings.mood },
        sessionStartedAt: { $cond: [startsSession, now, '$sessionStartedAt'] },
        sessionStartedBy: { $cond: [startsSession, turn, '$sessionStartedBy'] },
        lastTurnAt: now,
        // A profile older code stored with the id as a hex string keeps it from now on as an ObjectId.
        userId: { $literal: userId },
        createdAt: { $ifNull: ['$createdAt', now] },
        updatedAt: now,
      },
    },
  ];
}

/** Applies a finished turn to the rider's profile (created on the first); says whether it began a session. */
export async function recordTurn(
  store: Store,
  userId: ObjectId,
  learnings: TurnLearnings,
  accountName?: string,
): Promise<{ profile: CompanionProfileDoc; sessionStarted: boolean }> {
  const now = new Date();
  const turn = new ObjectId();
  const { filter, sort } = profileOf(userId);
  const apply = () =>
    store.companion_profiles.findOneAndUpdate(filter, turnUpdate(userId, learnings, accountName, now, turn), {
      upsert: true,
      sort,
      returnDocument: 'after',
    });
  // Two first turns at once both try to insert; the unique index lets one win, and the other updates it.
  const profile = await onDuplicateKey(apply, apply);
  if (!profile) throw new Error('companion profile upsert returned no document');
  return { profile, sessionStarted: sameId(profile.sessionStartedBy, turn) };
}
