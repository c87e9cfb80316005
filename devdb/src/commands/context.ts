import { Aggregator } from 'mingo';
import type { CursorRegistry } from '../cursors.js';
import { typeMismatch } from '../errors.js';
import type { Store } from '../store.js';
import { type Doc, isPlainObject } from '../values.js';

export interface CommandContext {
  store: Store;
  cursors: CursorRegistry;
  connectionId: number;
  /** Target database (`$db`, or the OP_QUERY namespace prefix). */
  db: string;
  /** The server's connection counts, for serverStatus; absent when a command runs outside a server. */
  connections?: ConnectionCounts;
}

export interface ConnectionCounts {
  current(): number;
  totalCreated: number;
  /** serverStatus.opcounters: operations received, by MongoDB's categories. */
  opcounters: Record<'insert' | 'query' | 'update' | 'delete' | 'getmore' | 'command', number>;
}

/** Returns the reply body, or a promise of it for work done in slices; `ok: 1` is added by the dispatcher. */
export type CommandHandler = (cmd: Doc, ctx: CommandContext) => Doc | Promise<Doc>;

export function stringField(cmd: Doc, field: string): string {
  const v = cmd[field];
  if (typeof v !== 'string') typeMismatch(field, 'string', v);
  return v;
}

export function docArray(cmd: Doc, field: string): Doc[] {
  const v = cmd[field];
  if (!Array.isArray(v) || !v.every(isPlainObject)) typeMismatch(field, 'array', v);
  return v;
}

/** `let` values are expressions (`{$literal: '$x'}`), evaluated once per command as in mongod. */
function evaluateLet(vars: Doc): Doc {
  return new Aggregator([{ $replaceWith: { $literal: {} } }, { $set: vars }]).run<Doc>([{}])[0] ?? {};
}

/** `let` and `collation`, shared by most read and write commands. */
export function queryContext(cmd: Doc): { variables?: Doc; collation?: Doc } {
  const out: { variables?: Doc; collation?: Doc } = {};
  if (isPlainObject(cmd.let)) out.variables = evaluateLet(cmd.let);
  if (isPlainObject(cmd.collation)) out.collation = cmd.collation;
  return out;
}

/** Fields any command may carry that say nothing about the operation itself. */
const GENERIC_FIELDS = new Set([
  '$db',
  'lsid',
  '$readPreference',
  'txnNumber',
  'autocommit',
  'startTransaction',
  'writeConcern',
  'readConcern',
  '$clusterTime',
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
  'comment',
  'maxTimeMS',
]);

/** The command document minus its name and generic fields (e.g. `create` options). */
export function commandOptions(cmd: Doc): Doc {
  const [, ...rest] = Object.keys(cmd);
  const out: Doc = {};
  for (const k of rest) if (!GENERIC_FIELDS.has(k)) out[k] = cmd[k];
  return out;
}
