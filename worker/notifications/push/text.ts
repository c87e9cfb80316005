import { readString } from '../../platform/db/stored-values';
import { LIMITS } from '../../platform/limits';

const ELLIPSIS = '…';

/**
 * One line of at most `max` characters (code points, so an emoji is never split): whitespace runs
 * become one space; a longer text is cut on the last word boundary that leaves room for an ellipsis,
 * or mid-word when its first word alone is too long. Texts come from stored documents (an event's title, a
 * list's name), so a number stored there reads as its digits and anything else not text as empty: one odd
 * document never stops a run of pushes.
 */
export function fitText(text: unknown, max: number): string {
  const line = Array.from((readString(text) ?? '').replace(/\s+/g, ' ').trim());
  if (line.length <= max) return line.join('');
  const room = line.slice(0, max - ELLIPSIS.length);
  // The room ends on a word boundary when the next character is a space.
  const lastSpace = line[room.length] === ' ' ? room.length : room.lastIndexOf(' ');
  const kept = lastSpace > 0 ? room.slice(0, lastSpace) : room;
  return `${kept.join('').replace(/[\s.,;:!?-]+$/, '')}${ELLIPSIS}`;
}

/** A notification title within the interface spec's 30 characters. */
export const fitTitle = (text: unknown) => fitText(text, LIMITS.push.titleMax);

/** A notification body: one line within the interface spec's 80 characters. */
export const fitBody = (text: unknown) => fitText(text, LIMITS.push.bodyMax);
