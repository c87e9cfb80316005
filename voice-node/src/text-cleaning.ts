// What the synthesiser is given (the interface spec, Voice WebSocket: "Before synthesis the text is
// cleaned"): markdown stripped, repeated exclamation marks and stretched letters collapsed, slang spoken.
import { applySlang } from './slang.js';
import { collapseStretchedLetters } from './stretched-words.js';

/** Markdown and chat markup removed, keeping the words a reader would say. */
export function stripMarkdown(text: string): string {
  return (
    text
      // Code blocks are not read aloud.
      .replace(/```[\s\S]*?(```|$)/g, ' ')
      .replace(/`([^`]*)`/g, '$1')
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>\n]+>/g, '')
      .replace(/\bhttps?:\/\/\S+/gi, '')
      .replace(/\bwww\.\S+/gi, '')
      .replace(/^\s{0,3}#{1,6}\s+/gm, '')
      .replace(/^\s{0,3}>\s?/gm, '')
      .replace(/^\s*(?:[-*+]|\d+[.)])\s+/gm, '')
      .replace(/^\s*(?:[-*_]\s*){3,}$/gm, '')
      .replace(/(\*\*|__)(.+?)\1/g, '$2')
      .replace(/(?<![\p{L}\p{N}])([*_])(?!\s)(.+?)(?<!\s)\1(?![\p{L}\p{N}])/gu, '$2')
      .replace(/~~(.+?)~~/g, '$1')
      .replace(/\|/g, ' ')
      .replace(/[*_#~]+/g, ' ')
      // Emoji have no reading espeak-ng agrees with; they carry tone, which emotion_state already sends.
      .replace(/\p{Extended_Pictographic}|\u{FE0F}|\u{200D}/gu, '')
  );
}

/** "!!!" becomes "!", "???" becomes "?", and "?!?!" becomes "?!". */
export function collapsePunctuation(text: string): string {
  return text
    .replace(/!+/g, '!')
    .replace(/\?+/g, '?')
    .replace(/([?!]){2,}/g, (run) => (run.includes('?') ? '?!' : '!'))
    .replace(/\.{4,}/g, '...');
}

/** The whole cleaning, in order; whitespace is normalised last. */
export function cleanForSpeech(text: string): string {
  const cleaned = applySlang(collapseStretchedLetters(collapsePunctuation(stripMarkdown(text))));
  return cleaned
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{2,}/g, '\n')
    .trim();
}
