// The parts of RFC 5545 (iCalendar) the event feeds need: text escaping, line folding and the
// date forms. Small enough to own; test/worker/events/events-calendar.test.ts parses the output with ical.js.

/** One content line before folding: the name with any parameters (`DTSTART;VALUE=DATE`), and the value as written. */
export type ContentLine = [name: string, value: string];

/** A content line is at most 75 octets; longer ones continue on lines starting with one space (RFC 5545, 3.1). */
const LINE_OCTETS = 75;
const encoder = new TextEncoder();

/** TEXT values escape backslash, semicolon and comma, and write each line break as `\n` (RFC 5545, 3.3.11). */
export function escapeText(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** Splits a line into pieces of at most 75 octets, never inside a UTF-8 character. */
export function foldLine(line: string): string {
  const pieces: string[] = [];
  let piece = '';
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    // Continuation lines spend one octet on the leading space.
    const room = pieces.length ? LINE_OCTETS - 1 : LINE_OCTETS;
    if (octets + size > room) {
      pieces.push(piece);
      piece = '';
      octets = 0;
    }
    piece += char;
    octets += size;
  }
  pieces.push(piece);
  return pieces.join('\r\n ');
}

const pad = (value: number) => String(value).padStart(2, '0');

/** A DATE value: `YYYYMMDD` of the UTC day. */
export function formatDate(date: Date): string {
  return `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}`;
}

/** A DATE-TIME value in UTC: `YYYYMMDDTHHMMSSZ`. */
export function formatUtc(date: Date): string {
  return `${formatDate(date)}T${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}Z`;
}

/** A component (`VEVENT`, ...) as content lines. */
export function component(name: string, lines: ContentLine[]): ContentLine[] {
  return [['BEGIN', name], ...lines, ['END', name]];
}

/** The iCalendar object: every line folded, each ending in CRLF (RFC 5545, 3.1). */
export function writeCalendar(lines: ContentLine[]): string {
  return lines.map(([name, value]) => `${foldLine(`${name}:${value}`)}\r\n`).join('');
}
