import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { escapeText, foldLine, formatDate, formatUtc, writeCalendar } from '../../../worker/events/catalog/ical';

const octets = (text: string) => new TextEncoder().encode(text).length;

describe('the RFC 5545 writer', () => {
  it('escapes backslash, semicolon, comma and line breaks in TEXT values', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf\rg')).toBe('a\\\\b\\;c\\,d\\ne\\nf\\ng');
  });

  it('folds lines at 75 octets, continuation lines starting with one space, never inside a UTF-8 character', () => {
    const line = `SUMMARY:${'Ünïcødé 🛹 '.repeat(20)}`;
    const folded = foldLine(line);
    const lines = folded.split('\r\n');
    expect(lines.length).toBeGreaterThan(3);
    for (const [index, piece] of lines.entries()) {
      expect(octets(piece)).toBeLessThanOrEqual(75);
      if (index > 0) expect(piece.startsWith(' ')).toBe(true);
      expect(piece).not.toContain('\uFFFD');
    }
    expect(lines.map((piece, index) => (index ? piece.slice(1) : piece)).join('')).toBe(line);
    expect(foldLine('SHORT:x')).toBe('SHORT:x');
    expect(foldLine(`X:${'a'.repeat(73)}`)).toBe(`X:${'a'.repeat(73)}`);
  });

  it('writes UTC date-times and dates', () => {
    const at = new Date('2031-03-04T05:06:07.890Z');
    expect(formatUtc(at)).toBe('20310304T050607Z');
    expect(formatDate(at)).toBe('20310304');
  });

  it('round-trips awkward text through an independent parser (ical.js), every line ending in CRLF', () => {
    const summary = `Rock & Roll; "Jam", part\\2\nSecond line ${'long '.repeat(30)}é`;
    const ics = writeCalendar([
      ['BEGIN', 'VCALENDAR'],
      ['VERSION', '2.0'],
      ['PRODID', '-//test//EN'],
      ['BEGIN', 'VEVENT'],
      ['UID', 'x@test'],
      ['DTSTAMP', '20310101T000000Z'],
      ['DTSTART;VALUE=DATE', '20310102'],
      ['SUMMARY', escapeText(summary)],
      ['END', 'VEVENT'],
      ['END', 'VCALENDAR'],
    ]);
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!);
    expect(event.summary).toBe(summary);
  });
});
