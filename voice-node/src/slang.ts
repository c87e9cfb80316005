// The one slang dictionary: chat shorthand and rider slang as espeak-ng should say them.
// Keys are matched as whole words, case-insensitively; values are what is spoken.
export const SLANG: Readonly<Record<string, string>> = {
  lol: 'ha',
  lmao: 'ha ha',
  omg: 'oh my god',
  idk: "I don't know",
  imo: 'in my opinion',
  imho: 'in my honest opinion',
  tbh: 'to be honest',
  ngl: 'not gonna lie',
  btw: 'by the way',
  brb: 'be right back',
  rn: 'right now',
  fr: 'for real',
  irl: 'in real life',
  nvm: 'never mind',
  thx: 'thanks',
  ty: 'thank you',
  pls: 'please',
  plz: 'please',
  u: 'you',
  ur: 'your',
  cuz: 'because',
  bc: 'because',
  gg: 'good game',
  sesh: 'session',
  fs: 'frontside',
  bs: 'backside',
  sw: 'switch',
  nollie: 'nolly',
  ollie: 'olly',
  'kick-flip': 'kickflip',
  '360': 'three sixty',
  '180': 'one eighty',
  '540': 'five forty',
  '720': 'seven twenty',
  '900': 'nine hundred',
};

const pattern = new RegExp(`(?<![\\p{L}\\p{N}'-])(${Object.keys(SLANG).join('|')})(?![\\p{L}\\p{N}'-])`, 'giu');

/** Replaces each whole-word slang term with its spoken form. */
export function applySlang(text: string): string {
  return text.replace(pattern, (word) => SLANG[word.toLowerCase()] ?? word);
}
