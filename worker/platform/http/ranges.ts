/** What a Range header asks of a file of `size` bytes (RFC 9110, section 14). */
export type RangeAsk = { kind: 'whole' } | { kind: 'part'; offset: number; length: number } | { kind: 'unsatisfiable' };

/**
 * One `bytes=` range, as video players send; a header that is malformed, of another unit or with several ranges
 * is ignored and the whole file served, as the RFC allows.
 */
export function parseRange(header: string | undefined, size: number): RangeAsk {
  const match = header?.trim().match(/^bytes=(\d*)-(\d*)$/);
  if (!match) return { kind: 'whole' };
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    const length = Math.min(suffix, size);
    return { kind: 'part', offset: size - length, length };
  }
  const offset = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < offset) return { kind: 'whole' };
  if (offset >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', offset, length: end - offset + 1 };
}
