import { describe, expect, it } from 'vitest';
import { nameWords, withNameWords } from '../../../worker/accounts/users/name-words';

describe('nameWords', () => {
  it('lower-cases, strips accents and splits on anything but letters and digits', () => {
    expect(nameWords('José Ramírez')).toEqual(['jose', 'ramirez']);
    expect(nameWords("  Zoë O'Brien-Ängström 2 ")).toEqual(['zoe', 'o', 'brien', 'angstrom', '2']);
  });

  it('keeps each word once and letters of other scripts', () => {
    expect(nameWords('Ana ana Ана')).toEqual(['ana', 'ана']);
  });

  it('adds the words only to changes that carry a name', () => {
    expect(withNameWords<{ name?: string; imageUri?: string }>({ imageUri: 'x' })).toEqual({ imageUri: 'x' });
    expect(withNameWords({ name: 'Élan Vital' })).toEqual({ name: 'Élan Vital', nameWords: ['elan', 'vital'] });
  });
});
