import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INDEXES } from '../../../worker/data';

const notes = readFileSync(new URL('../../../migrations-notes/indexes.md', import.meta.url), 'utf8');

function optionsText(options: (typeof INDEXES)[number]['options']): string {
  return [
    options.unique && 'unique',
    options.sparse && 'sparse',
    options.expireAfterSeconds !== undefined && `TTL ${options.expireAfterSeconds} s`,
  ]
    .filter(Boolean)
    .join(', ');
}

describe('migrations-notes/indexes.md', () => {
  it('lists exactly the declared indexes', () => {
    const rows = notes
      .split('\n')
      .filter((line) => /^\| [a-z_A-Z]+ \| /.test(line) && !line.startsWith('| collection'))
      .map((line) =>
        line
          .split('|')
          .slice(1, 5)
          .map((cell) => cell.trim()),
      );
    const declared = INDEXES.map((index) => [
      index.collection,
      index.options.name,
      `\`{ ${Object.entries(index.key)
        .map(([field, dir]) => `${field}: ${typeof dir === 'string' ? `'${dir}'` : dir}`)
        .join(', ')} }\``,
      optionsText(index.options),
    ]);
    expect(rows).toEqual(declared);
  });

  it('declares each index name once per collection', () => {
    const keys = INDEXES.map((index) => `${index.collection}.${index.options.name}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
