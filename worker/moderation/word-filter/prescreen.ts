import {
  type BlacklistedTerm,
  englishRecommendedBlacklistMatcherTransformers,
  type Node,
  type ParsedPattern,
  SyntaxKind,
  type TransformerContainer,
} from 'obscenity';

// obscenity's RegExpMatcher answers a clean 2,000-character post in about 2 ms, most of it spent walking the text
// character by character through its transformers twice (once for the allowed words, once for the listed ones).
// This pass reads the text as the listed patterns see it, in one walk with the per-character transformers
// remembered, and finds where any listed pattern matches: when none does, the matcher has nothing to find. Only the
// text around each such place goes to the matcher, whose allowed words then decide.

type Transformed = number | undefined;
const UNKNOWN = -2;
const DROPPED = -1;

/** The transformers' chain as the matcher applies it (TransformerSet), the stateless part remembered per code point. */
function transformerChain(containers: readonly TransformerContainer[]) {
  const firstStateful = containers.findIndex((container) => container.type !== 0);
  const simple = containers.slice(0, firstStateful === -1 ? containers.length : firstStateful);
  const rest = containers.slice(simple.length);
  // Per code point of the Basic Multilingual Plane: UNKNOWN until first seen, DROPPED when the chain drops it.
  const remembered = new Int32Array(0x10000).fill(UNKNOWN);
  const chain = (char: number): Transformed => {
    let out: Transformed = char;
    for (const container of simple) {
      if (out === undefined) break;
      if (container.type === 0) out = container.transform(out);
    }
    return out;
  };
  const simpleChain = (char: number): Transformed => {
    if (char > 0xffff) return chain(char);
    let out = remembered[char]!;
    if (out === UNKNOWN) remembered[char] = out = chain(char) ?? DROPPED;
    return out === DROPPED ? undefined : out;
  };
  return (text: string): { seen: string; from: number[] } => {
    const stateful = rest.map((container) => (container.type === 1 ? container.factory() : undefined));
    const out: number[] = [];
    const from: number[] = [];
    // Code points as obscenity's CharacterIterator reads them: a lone surrogate is a character of its own.
    for (let at = 0; at < text.length; at++) {
      const start = at;
      let char: Transformed = text.codePointAt(at)!;
      if (char > 0xffff) at++;
      char = simpleChain(char);
      for (let i = 0; i < rest.length && char !== undefined; i++) {
        const container = rest[i]!;
        char = container.type === 0 ? container.transform(char) : stateful[i]!.transform(char);
      }
      if (char === undefined) continue;
      out.push(char);
      // A code point past the plane is two code units in the transformed text too.
      from.push(start);
      if (char > 0xffff) from.push(start);
    }
    let seen = '';
    for (let start = 0; start < out.length; start += 4096)
      seen += String.fromCodePoint(...out.slice(start, start + 4096));
    return { seen, from };
  };
}

const SPECIAL = new Set([...'[.*+?^$(){}|\\]'].map((char) => char.codePointAt(0)!));

// The regular expression obscenity compiles each pattern to (its compilePatternToRegExp), from the public node types.
function sourceOf(node: Node): string {
  if (node.kind === SyntaxKind.Optional) return `(?:${sourceOf(node.childNode)})?`;
  if (node.kind === SyntaxKind.Wildcard) return '.';
  return node.chars.map((char) => (SPECIAL.has(char) ? '\\' : '') + String.fromCodePoint(char)).join('');
}

const patternSource = (pattern: ParsedPattern) =>
  `${pattern.requireWordBoundaryAtStart ? '\\b' : ''}${pattern.nodes.map(sourceOf).join('')}${pattern.requireWordBoundaryAtEnd ? '\\b' : ''}`;

// Transformed characters kept on each side of a place where a pattern matches: a match starting inside it (at most
// LIMITS.wordFilter.termMax long) ends well before the window does.
const WINDOW_MARGIN = 160;
/**
 * Original characters at a window's cut edges where a match does not count: its allowed words may reach past the cut.
 * Every match of the whole text lies at least this far inside the window of the place it starts at or in.
 */
export const WINDOW_EDGE = 80;

/** A part of the text, and where in it a match counts (not within WINDOW_EDGE of a cut). */
export interface TextWindow {
  text: string;
  from: number;
  to: number;
}

/**
 * The parts of `text` around each place where some of `terms` match as the English transformers read it, each widened
 * by WINDOW_MARGIN transformed characters and out to whitespace; none when nothing can match. The matcher finds a
 * match in the text exactly when it finds one inside a window, at a fraction of the cost of reading all of it.
 */
export function listedPatternWindows(terms: readonly BlacklistedTerm[]): (text: string) => TextWindow[] {
  const transform = transformerChain(englishRecommendedBlacklistMatcherTransformers);
  // One alternation: it matches somewhere exactly when one of the patterns does, in one walk of the text.
  const anyPattern = terms.length ? new RegExp(terms.map((term) => patternSource(term.pattern)).join('|'), 'gs') : null;
  return (text) => {
    if (!anyPattern) return [];
    const { seen, from } = transform(text);
    const windows: TextWindow[] = [];
    let read = 0;
    for (const match of seen.matchAll(anyPattern)) {
      const first = Math.max(0, match.index - WINDOW_MARGIN);
      const last = match.index + match[0].length + WINDOW_MARGIN;
      let start = from[first]!;
      let end = last < from.length ? from[last]! : text.length;
      while (start > 0 && !/\s/.test(text[start - 1]!)) start--;
      while (end < text.length && !/\s/.test(text[end]!)) end++;
      if (start > 0) start--;
      const part = text.slice(start, end);
      windows.push({
        text: part,
        from: start > 0 ? WINDOW_EDGE : 0,
        to: end < text.length ? part.length - WINDOW_EDGE : part.length,
      });
      read += part.length;
      // Past the text's length in windows, reading it whole is cheaper.
      if (read > text.length) return [{ text, from: 0, to: text.length }];
    }
    return windows;
  };
}
