import { z } from '@hono/zod-openapi';
import { LIMITS } from '../limits';

// Control characters (Unicode Cc: U+0000–U+001F, U+007F–U+009F) are never typed, and a NUL breaks a database regex.
const NO_CONTROLS = /^\P{Cc}*$/u;
// Multi-line text keeps tab, line feed and carriage return.
const NO_CONTROLS_BUT_LINES = /^[\P{Cc}\t\n\r]*$/u;
const REFUSED = 'must not contain control characters';

/** One line of text a client typed: a control character is a 400 naming the field. */
export const lineText = () => z.string().regex(NO_CONTROLS, REFUSED);

/** Text that may span lines (a chat message): tab, line feed and carriage return pass, other controls are a 400. */
export const multiLineText = () => z.string().regex(NO_CONTROLS_BUT_LINES, REFUSED);

/** A search or filter text in a query string: one line, trimmed, at most `max` characters. */
export const queryText = (max: number = LIMITS.searchQueryMax) => lineText().trim().max(max);
