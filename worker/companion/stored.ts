import type { ObjectId } from 'mongodb';
import {
  createdAtOf,
  readCount,
  readId,
  readOneOf,
  readRecord,
  readString,
  readStrings,
} from '../platform/db/stored-values';
import { type CompanionStage, STAGES, stageFor } from './chat/stages';

// The companion's stored shapes read as the brain uses them, whatever older code left in them (migrations-notes/legacy-documents-social.md).

/** What the persona takes from a rider's profile. */
export interface CompanionPersona {
  name?: string;
  stage: CompanionStage;
  facts: string[];
  sports: string[];
}

/** A chat row of either store as the memory rule takes it. */
export interface CompanionChatRow {
  _id: ObjectId;
  userId: ObjectId;
  role: 'user' | 'assistant';
  text: string;
  createdAt: Date;
}

/**
 * A profile's persona: facts and sports as lists of texts (one text stored alone is a list of it), the stage as
 * stored when it is one, else the one its count reaches (a count stored as a string is read as its number).
 */
export function readCompanionPersona(doc: unknown): CompanionPersona | undefined {
  const stored = readRecord(doc);
  if (!stored) return undefined;
  const name = readString(stored.name);
  return {
    ...(name !== undefined ? { name } : {}),
    stage: readOneOf(stored.stage, STAGES) ?? stageFor(readCount(stored.interactionCount) ?? 0),
    facts: readStrings(stored.facts),
    sports: readStrings(stored.sports),
  };
}

/** A chat row, or undefined when it has no usable id, rider, role or text (it then has nothing to remember). */
export function readCompanionChatRow(doc: unknown): CompanionChatRow | undefined {
  const stored = readRecord(doc);
  const _id = readId(stored?._id);
  const userId = readId(stored?.userId);
  const role = readOneOf(stored?.role, ['user', 'assistant'] as const);
  const text = readString(stored?.text);
  if (!stored || !_id || !userId || !role || text === undefined) return undefined;
  return { _id, userId, role, text, createdAt: createdAtOf(stored) };
}
