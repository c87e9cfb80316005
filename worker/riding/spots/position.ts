import { ObjectId } from 'mongodb';

/**
 * A place in an ordered walk: a number (a distance in metres, or a time in ms) and the id that
 * breaks ties, so items sharing the number are never skipped. Clients see it as opaque base64.
 */
export interface Position {
  n: number;
  id: ObjectId;
}

export function encodePosition({ n, id }: Position): string {
  return btoa(`${n}~${id.toHexString()}`).replace(/=+$/, '');
}

export function decodePosition(text: string): Position | undefined {
  let plain: string;
  try {
    plain = atob(text);
  } catch {
    return undefined;
  }
  const match = /^(\d+(?:\.\d+)?(?:e[-+]?\d+)?)~([0-9a-f]{24})$/.exec(plain);
  if (!match) return undefined;
  const n = Number(match[1]);
  return Number.isFinite(n) ? { n, id: new ObjectId(match[2]) } : undefined;
}

/** A sync cursor: the position reached, and since when the client has seen every deletion (`coveredFrom`, ms). */
export interface SyncCursor extends Position {
  coveredFrom: number;
}

export function encodeSyncCursor(cursor: SyncCursor): string {
  return `${encodePosition(cursor)}.${btoa(String(cursor.coveredFrom)).replace(/=+$/, '')}`;
}

export function decodeSyncCursor(text: string): SyncCursor | undefined {
  const [position, covered, ...extra] = text.split('.');
  if (!position || !covered || extra.length) return undefined;
  const at = decodePosition(position);
  let coveredFrom: number;
  try {
    coveredFrom = /^\d{1,15}$/.test(atob(covered)) ? Number(atob(covered)) : NaN;
  } catch {
    return undefined;
  }
  return at && Number.isFinite(coveredFrom) ? { ...at, coveredFrom } : undefined;
}
