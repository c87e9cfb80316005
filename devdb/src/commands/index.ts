import { BSONError } from 'bson';
import { MingoError } from 'mingo/util';
import { codeNameOf, DevDbError, ErrorCodes } from '../errors.js';
import type { Doc } from '../values.js';
import { adminCommands } from './admin.js';
import { aggregateCommands } from './aggregate.js';
import type { CommandContext, CommandHandler } from './context.js';
import { ddlCommands } from './ddl.js';
import { findAndModifyCommands } from './find-and-modify.js';
import { indexCommands } from './index-commands.js';
import { readCommands } from './read.js';
import { writeCommands } from './write.js';

export type { CommandContext } from './context.js';

// A Map, so command names like "constructor" can't hit Object.prototype.
const handlers = new Map<string, CommandHandler>(
  Object.entries({
    ...adminCommands,
    ...ddlCommands,
    ...indexCommands,
    ...readCommands,
    ...aggregateCommands,
    ...writeCommands,
    ...findAndModifyCommands,
  }),
);

export function errorReply(err: unknown): Doc {
  if (err instanceof DevDbError) {
    return { ok: 0, errmsg: err.message, code: err.code, codeName: err.codeName, ...err.extra };
  }
  const message = err instanceof Error ? err.message : String(err);
  // mingo and bson reject malformed queries/values: the client's fault, not ours.
  const code = err instanceof MingoError || err instanceof BSONError ? ErrorCodes.BadValue : ErrorCodes.InternalError;
  return { ok: 0, errmsg: message, code, codeName: codeNameOf(code) };
}

/**
 * Runs one command and always returns a reply document (a promise of it for a command evaluated in slices).
 * Journal records are flushed before the reply, so an `ok` reply means the write reached the OS.
 */
export function runCommand(cmd: Doc, ctx: CommandContext): Doc | Promise<Doc> {
  let body: Doc | Promise<Doc>;
  try {
    const name = Object.keys(cmd)[0] ?? '';
    const handler = handlers.get(name);
    if (!handler) return flushed(errorReply(new DevDbError('CommandNotFound', `no such command: '${name}'`)), ctx);
    body = handler(cmd, ctx);
  } catch (err) {
    return flushed(errorReply(err), ctx);
  }
  if (body instanceof Promise) {
    return body.then(
      (done) => flushed({ ...done, ok: 1 }, ctx),
      (err: unknown) => flushed(errorReply(err), ctx),
    );
  }
  return flushed({ ...body, ok: 1 }, ctx);
}

function flushed(reply: Doc, ctx: CommandContext): Doc {
  try {
    // Also after failures: ordered batches may have applied writes before failing.
    ctx.store.flush();
  } catch (err) {
    return errorReply(err);
  }
  return reply;
}
