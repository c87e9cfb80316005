import { describe, expect, it } from 'vitest';
import { slugify } from '../../../worker/platform/http/slug';
import { LIMITS } from '../../../worker/platform/limits';

describe('slugify', () => {
  it('joins lower-cased words with single hyphens and drops punctuation', () => {
    expect(slugify('  Frontside 180 Ollie!  ')).toBe('frontside-180-ollie');
    expect(slugify('50-50 -- Grind')).toBe('50-50-grind');
  });

  it('drops accents instead of the letters that carry them', () => {
    expect(slugify('Café Rodéo')).toBe('cafe-rodeo');
  });

  it('gives nothing for a name without letters or digits', () => {
    expect(slugify('🛹 !!')).toBe('');
  });

  it('stops at the last whole word within the limit, and cuts a single word that is too long', () => {
    const slug = slugify(`${'word '.repeat(40)}`);
    expect(slug.length).toBeLessThanOrEqual(LIMITS.content.slugMax);
    expect(slug.endsWith('word')).toBe(true);
    expect(slugify('x'.repeat(LIMITS.content.slugMax + 5))).toBe('x'.repeat(LIMITS.content.slugMax));
  });
});
