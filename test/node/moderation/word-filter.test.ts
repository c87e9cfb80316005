import { ObjectId } from 'mongodb';
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_ALLOWED } from '../../../worker/moderation/word-filter/built-in-terms';
import { buildWordFilter, collapsedAsMatched, normalizeTerm } from '../../../worker/moderation/word-filter/matching';
import { readTerm } from '../../../worker/moderation/word-filter/reader';
import { spacedLetterRuns } from '../../../worker/moderation/word-filter/spaced-letters';
import { readDirectMessage } from '../../../worker/social/stored-messaging';
import { DISGUISED_BAD_WORDS, RIDER_SLANG } from '../../support/rider-slang';

const filter = buildWordFilter([]);

describe('the word filter', () => {
  it.each(RIDER_SLANG)('lets riders say "%s"', (text) => {
    expect(filter.matches(text)).toBe(false);
  });

  it.each(DISGUISED_BAD_WORDS)('refuses "%s"', (text) => {
    expect(filter.matches(text)).toBe(true);
  });

  it('tells a bad word from a word that holds one', () => {
    expect(filter.matches('Penistone skatepark')).toBe(false);
    expect(filter.matches('what a penis')).toBe(true);
    expect(filter.matches('Scunthorpe bowl jam')).toBe(false);
    expect(filter.matches('cocktail after the session')).toBe(false);
  });

  it('reads numbers and codes as what they are, never as disguised words', () => {
    // Hex ids with few digits read as leetspeak too: "fa62eabe" and "faa6aa6e" as a slur (6 as g).
    for (const text of [
      'the ledge off Route 455',
      'landed 4 5 5 in a row',
      'spot a55f9a08',
      'pier 7, 1999',
      'spot fa62eabe',
      'spot faa6aa6e',
    ])
      expect(filter.matches(text), text).toBe(false);
    for (const text of ['you a55', 'sh1t', 'b00bs', 'what the fuck 2024'])
      expect(filter.matches(text), text).toBe(true);
  });

  it('refuses none of thousands of random ids, as tests and riders paste them', () => {
    const refused = Array.from({ length: 5000 }, () => `spot ${crypto.randomUUID().slice(0, 8)}`).filter((text) =>
      filter.matches(text),
    );
    expect(refused).toEqual([]);
  });

  it('finds a bad word anywhere in a long post', () => {
    const post = `${'Rode the bowl all afternoon, carved the deep end and slammed twice. '.repeat(28)}sh1t`;
    expect(post.length).toBeGreaterThan(1900);
    expect(filter.matches(post)).toBe(true);
    expect(filter.matches(post.slice(0, -4))).toBe(false);
  });
});

describe("admins' terms", () => {
  it('refuses a blocked word as a whole word, disguised too, but not inside another word', () => {
    const withTerm = buildWordFilter([{ term: 'barney', kind: 'block', match: 'word' }]);
    expect(filter.matches('what a barney')).toBe(false);
    expect(withTerm.matches('what a barney')).toBe(true);
    expect(withTerm.matches('what a b4rn3y')).toBe(true);
    expect(withTerm.matches('what a b a r n e y')).toBe(true);
    expect(withTerm.matches('barneys rubble')).toBe(false);
  });

  it('refuses a term matched as a part inside any word', () => {
    const withTerm = buildWordFilter([{ term: 'barney', kind: 'block', match: 'part' }]);
    expect(withTerm.matches('megabarneyfest')).toBe(true);
  });

  it('lets through a word the built-in list would refuse once an admin allows it', () => {
    expect(filter.matches('Cocks Lane skatepark')).toBe(true);
    const withAllowed = buildWordFilter([{ term: 'cocks lane', kind: 'allow', match: 'word' }]);
    expect(withAllowed.matches('Cocks Lane skatepark')).toBe(false);
    expect(withAllowed.matches('cock')).toBe(true);
  });

  it('matches a term with doubled letters however many a rider types', () => {
    const withTerm = buildWordFilter([{ term: 'wazzock', kind: 'block', match: 'word' }]);
    expect(withTerm.matches('what a wazzock')).toBe(true);
    expect(withTerm.matches('what a wazzzzock')).toBe(true);
    expect(withTerm.matches('what a w4zz0ck')).toBe(true);
    expect(collapsedAsMatched('wazzock balloon')).toBe('wazock balloon');
  });

  it('stores a term in one form whatever the admin typed', () => {
    expect(normalizeTerm('  Bad   WORD ')).toBe('bad word');
    expect(normalizeTerm('b[a]d|?\\')).toBe('bad');
  });
});

describe('spaced letters', () => {
  it('joins letters spelled out one by one, and leaves words alone', () => {
    expect(spacedLetterRuns('oh f u c k that')).toEqual(['fuck']);
    expect(spacedLetterRuns('s.h.i.t and f-u-c-k')).toEqual(['shit', 'fuck']);
    expect(spacedLetterRuns('a b a d word')).toEqual(['abad', 'bad']);
    expect(spacedLetterRuns('a kickflip on the 50-50 rail')).toEqual([]);
    expect(spacedLetterRuns('I am a rider')).toEqual([]);
  });
});

describe('reading only the text around a listed pattern', () => {
  // The matcher as it comes, reading the whole text: the windows must answer exactly as it does.
  const built = englishDataset.build();
  const whole = new RegExpMatcher({
    ...built,
    whitelistedTerms: [...(built.whitelistedTerms ?? []), ...BUILT_IN_ALLOWED],
    ...englishRecommendedTransformers,
  });
  const reference = (text: string) => whole.hasMatch(text) || spacedLetterRuns(text).some((run) => whole.hasMatch(run));

  it('answers as the matcher reading the whole text does, on texts mixing listed, allowed and disguised words', () => {
    const pieces = [
      ...RIDER_SLANG,
      ...DISGUISED_BAD_WORDS,
      ...BUILT_IN_ALLOWED,
      'pen is',
      'an al',
      'ass',
      'class',
      'a s s',
      'sssss',
      '   ',
      '\n',
      '!!',
      '4',
      '$',
      '🛹',
      'é',
      'с',
      'x'.repeat(90),
      `fu${'u'.repeat(120)}ck`,
    ];
    // A fixed sequence, so a failure repeats.
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let i = 0; i < 1500; i++) {
      const count = 1 + (next() % 40);
      const parts = Array.from({ length: count }, () => pieces[next() % pieces.length]!);
      const text = parts.join(next() % 3 ? ' ' : '');
      expect(filter.matches(text), text).toBe(reference(text));
    }
  });
});

describe('stored terms and marks', () => {
  it('reads a term stored without kind or match as a blocked whole word, and leaves out one holding no word', () => {
    const _id = new ObjectId();
    expect(readTerm({ _id, term: ' Kook ' })).toMatchObject({ _id, term: 'kook', kind: 'block', match: 'word' });
    expect(readTerm({ _id, term: 'kook', kind: 'allow', match: 'part' })).toMatchObject({
      kind: 'allow',
      match: 'part',
    });
    expect(readTerm({ _id, term: ' [] ' })).toBeUndefined();
    expect(readTerm({ _id, term: { word: 'kook' } })).toBeUndefined();
  });

  it('reads a direct message as filtered only when it is stored so', () => {
    const message = { _id: new ObjectId(), conversationId: new ObjectId(), text: 'hi' };
    expect(readDirectMessage({ ...message, filtered: true })?.filtered).toBe(true);
    expect(readDirectMessage(message)).not.toHaveProperty('filtered');
    expect(readDirectMessage({ ...message, filtered: 'yes' })).not.toHaveProperty('filtered');
  });
});
