/** The rider's first-person words and what the companion says back for each (lowercase; apostrophes straight). */
const SECOND_PERSON: Record<string, string> = {
  'i am': 'you are',
  'i was': 'you were',
  "i'm": "you're",
  "i've": "you've",
  "i'd": "you'd",
  "i'll": "you'll",
  i: 'you',
  me: 'you',
  my: 'your',
  mine: 'yours',
  myself: 'yourself',
};

const FIRST_PERSON = /\b(?:I am|I was|I['’](?:m|ve|d|ll)|I|me|my|mine|myself)\b/gi;

/**
 * A fact as the rider said it ("I broke my wrist"), turned to say back to them ("you broke your wrist"): facts are
 * stored in the rider's words (worker/companion/chat/profile.ts), and a recollection addresses the rider mid-sentence,
 * so every replacement is lowercase.
 */
export function inSecondPerson(fact: string): string {
  return fact.replace(FIRST_PERSON, (words) => {
    const curly = words.includes('’');
    const said = SECOND_PERSON[words.toLowerCase().replace('’', "'")] ?? words;
    return curly ? said.replace("'", '’') : said;
  });
}
