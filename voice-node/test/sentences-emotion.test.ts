import { describe, expect, it } from 'vitest';
import { emotionOf } from '../src/emotion.js';
import { splitSentences } from '../src/sentences.js';

describe('sentences', () => {
  it('splits after . ! ? and at line breaks, keeping each sentence whole for the stage timeline', () => {
    expect(splitSentences('Okay. Watch this! Wind up your shoulders.\nPop hard? Land it.')).toEqual([
      'Okay.',
      'Watch this!',
      'Wind up your shoulders.',
      'Pop hard?',
      'Land it.',
    ]);
  });

  it('does not split after an abbreviation or inside a number, and drops pieces with nothing to say', () => {
    expect(splitSentences('Meet at St. Mark at 3.30 today. ! Ok')).toEqual(['Meet at St. Mark at 3.30 today.', 'Ok']);
    expect(splitSentences('   ')).toEqual([]);
  });
});

describe('emotion', () => {
  it('reads concern before excitement, excitement before happiness, and a question as curious', () => {
    expect(emotionOf('Ouch, sorry you slammed! Epic try though!').emotion).toBe('concerned');
    expect(emotionOf("That was sick, let's go!").emotion).toBe('excited');
    expect(emotionOf('Nice, that looks fun.').emotion).toBe('happy');
    expect(emotionOf('Which park are you at?').emotion).toBe('curious');
    expect(emotionOf('The park opens at nine.')).toEqual({ emotion: 'neutral', intensity: 0.3 });
  });

  it('grows intensity with exclamation marks, up to 1', () => {
    expect(emotionOf('Stoked!').intensity).toBeLessThan(emotionOf('Stoked!!!').intensity);
    expect(emotionOf('Stoked!!!!!!!!').intensity).toBe(1);
  });
});
