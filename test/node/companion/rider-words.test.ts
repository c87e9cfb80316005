import { describe, expect, it } from 'vitest';
import { inSecondPerson } from '../../../worker/companion/chat/rider-words';

// A fact is stored in the rider's words; the companion says it back to them, so "I" becomes "you".
describe('saying a remembered fact back to the rider', () => {
  it.each([
    ['I broke my wrist in March', 'you broke your wrist in March'],
    ["I'm goofy and I've got a new deck", "you're goofy and you've got a new deck"],
    ['I am scared of drops but I was brave once', 'you are scared of drops but you were brave once'],
    ['My brother taught me, the board is mine', 'your brother taught you, the board is yours'],
    ['I hurt myself when I’d had no sleep', 'you hurt yourself when you’d had no sleep'],
    ["I'll ride Sunday", "you'll ride Sunday"],
    ['ride goofy', 'ride goofy'],
  ])('%s → %s', (fact, said) => {
    expect(inSecondPerson(fact)).toBe(said);
  });

  it('leaves words that only contain the pronouns alone', () => {
    expect(inSecondPerson('Miami is my mecca, I admire Imogen')).toBe('Miami is your mecca, you admire Imogen');
  });
});
