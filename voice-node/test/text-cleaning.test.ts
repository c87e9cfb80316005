import { describe, expect, it } from 'vitest';
import { applySlang } from '../src/slang.js';
import { collapseStretchedLetters, collapseStretchedWord } from '../src/stretched-words.js';
import { cleanForSpeech, collapsePunctuation, stripMarkdown } from '../src/text-cleaning.js';

describe('markdown stripping', () => {
  it('keeps the words of emphasis, links, images, inline code, headings, quotes and list items', () => {
    expect(stripMarkdown('**Sick** _line_ and *style* ~~bail~~')).toBe('Sick line and style bail');
    expect(stripMarkdown('See [the park](https://x.test/p) ![a ramp](r.png) or `kickflip`')).toBe(
      'See the park a ramp or kickflip',
    );
    expect(stripMarkdown('# Plan\n> stay loose\n- warm up\n2. drop in')).toBe('Plan\nstay loose\nwarm up\ndrop in');
  });

  it('drops code blocks, bare links, html tags and emoji, and keeps snake_case and 2*3 readable', () => {
    expect(stripMarkdown('Try\n```js\nx()\n```\nthis <b>now</b> https://a.test/x 🔥🛹')).toBe('Try\n \nthis now  ');
    expect(stripMarkdown('snake_case_name')).toBe('snake case name');
    expect(stripMarkdown('2 * 3')).toBe('2   3');
  });
});

describe('punctuation', () => {
  it('collapses repeated exclamation and question marks, and mixed runs to "?!"', () => {
    expect(collapsePunctuation('Yes!!! Really??? What?!?!')).toBe('Yes! Really? What?!');
    expect(collapsePunctuation('Hmm.....')).toBe('Hmm...');
  });
});

describe('stretched letters', () => {
  it.each([
    ['sooo', 'so'],
    ['coool', 'cool'],
    ['goooood', 'good'],
    ['yesss', 'yes'],
    ['niiiice', 'nice'],
    ['heyyy', 'hey'],
    ['whaaaat', 'what'],
    ['yeeeaaahhh', 'yeah'],
    ['tooooo', 'too'],
    ['Sooo', 'So'],
    ['NOOOO', 'NO'],
  ])('%s is spoken as %s', (stretched, spoken) => {
    expect(collapseStretchedWord(stretched)).toBe(spoken);
  });

  it('leaves real words with double letters alone and keeps an unknown word doubled, never singled', () => {
    for (const word of ['cool', 'good', 'see', 'all', 'coffee', 'bookkeeper'])
      expect(collapseStretchedWord(word)).toBe(word);
    expect(collapseStretchedWord('brrrrr')).toBe('brr');
    expect(collapseStretchedWord('zzzzz')).toBe('zz');
  });

  it('works word by word inside a sentence and leaves digits alone', () => {
    expect(collapseStretchedLetters('sooo coool, 1000 points!')).toBe('so cool, 1000 points!');
  });
});

describe('slang', () => {
  it('speaks whole-word slang, whatever the case, and leaves words that merely contain it', () => {
    expect(applySlang('ngl that was sick tbh, IDK how u did it')).toBe(
      "not gonna lie that was sick to be honest, I don't know how you did it",
    );
    expect(applySlang('a 360 flip and a 180')).toBe('a three sixty flip and a one eighty');
    expect(applySlang('lollipop, u-turn, bus, 3600')).toBe('lollipop, u-turn, bus, 3600');
  });
});

describe('the whole cleaning', () => {
  it('strips, collapses, speaks slang and tidies whitespace, in that order', () => {
    expect(cleanForSpeech('**Sooo coool!!!** ngl   that *360* was sick 🔥')).toBe(
      'So cool! not gonna lie that three sixty was sick',
    );
  });
});
