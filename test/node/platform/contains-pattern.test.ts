import { BSON } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { containsPattern, escapeRegex } from '../../../worker/platform/db/contains-pattern';

describe('regexes built from client text', () => {
  it('match regex characters literally', () => {
    const pattern = containsPattern('a.b*(c)?');
    expect(pattern.test('xA.B*(C)?y')).toBe(true);
    expect(pattern.test('aXbbc')).toBe(false);
  });

  it('carry control characters as escapes, so the driver can send them to the database', () => {
    const text = 'Ber\u0000lin\u0001\u001f\u007f\u0085';
    const pattern = containsPattern(text);
    expect(pattern.source).not.toMatch(/\p{Cc}/u);
    expect(() => BSON.serialize({ name: pattern })).not.toThrow();
    expect(pattern.test(`in ${text}!`)).toBe(true);
    expect(pattern.test('in Berlin')).toBe(false);
    expect(new RegExp(`^${escapeRegex(text)}$`).test(text)).toBe(true);
  });
});
