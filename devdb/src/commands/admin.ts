import { BSON } from 'bson';
import { Query } from 'mingo';
import { fail } from '../errors.js';
import { optionalDoc } from '../query.js';
import type { Doc } from '../values.js';
import { MAX_BSON_OBJECT_SIZE, MAX_MESSAGE_BYTES } from '../wire.js';
import type { CommandContext, CommandHandler } from './context.js';

/** MongoDB 7.0's wire version; the v7 driver needs at least 8. */
const MAX_WIRE_VERSION = 21;

function hello(cmd: Doc, ctx: CommandContext): Doc {
  const legacy = !('hello' in cmd);
  return {
    // The legacy command name answers with `ismaster`, hello with `isWritablePrimary`.
    ...(legacy ? { ismaster: true } : { isWritablePrimary: true }),
    ...(cmd.helloOk === true ? { helloOk: true } : {}),
    maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
    maxMessageSizeBytes: MAX_MESSAGE_BYTES,
    maxWriteBatchSize: 100000,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: ctx.connectionId,
    minWireVersion: 0,
    maxWireVersion: MAX_WIRE_VERSION,
    readOnly: false,
  };
}

function buildInfo(): Doc {
  return {
    version: '7.0.0',
    gitVersion: 'devdb',
    versionArray: [7, 0, 0, 0],
    bits: 64,
    debug: false,
    maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
    storageEngines: ['devdb'],
    javascriptEngine: 'none',
    allocator: 'system',
    modules: [],
    sysInfo: 'deprecated',
    openssl: { running: 'disabled' },
    buildEnvironment: {},
  };
}

function listDatabases(cmd: Doc, ctx: CommandContext): Doc {
  if (ctx.db !== 'admin') fail('Unauthorized', 'listDatabases may only be run against the admin database.');
  const filter = optionalDoc(cmd, 'filter');
  let entries = [...ctx.store.dbs.values()]
    .filter((db) => db.collections.size > 0)
    .map((db) => {
      let size = 0;
      if (cmd.nameOnly !== true) {
        for (const coll of db.collections.values())
          for (const d of coll.docs.values()) size += BSON.calculateObjectSize(d);
      }
      return { name: db.name, sizeOnDisk: size, empty: false };
    });
  if (filter) {
    const q = new Query(filter, {});
    entries = entries.filter((e) => q.test(e));
  }
  if (cmd.nameOnly === true) return { databases: entries.map(({ name }) => ({ name })) };
  const totalSize = entries.reduce((sum, e) => sum + e.sizeOnDisk, 0);
  return { databases: entries, totalSize, totalSizeMb: Math.floor(totalSize / (1024 * 1024)) };
}

const startedAt = Date.now();

/** The parts of MongoDB's serverStatus that devdb can honestly report: connections counted from outside (bench/data-path.ts). */
function serverStatus(_cmd: Doc, ctx: CommandContext): Doc {
  const uptimeMillis = Date.now() - startedAt;
  const current = ctx.connections?.current() ?? 0;
  return {
    host: 'devdb',
    version: '7.0.0',
    process: 'devdb',
    pid: process.pid,
    uptime: Math.floor(uptimeMillis / 1000),
    uptimeMillis,
    localTime: new Date(),
    connections: {
      current,
      available: 1_000_000 - current,
      totalCreated: ctx.connections?.totalCreated ?? 0,
      active: current,
    },
    opcounters: { ...(ctx.connections?.opcounters ?? {}) },
  };
}

export const adminCommands: Record<string, CommandHandler> = {
  hello,
  isMaster: hello,
  ismaster: hello,
  ping: () => ({}),
  buildInfo,
  buildinfo: buildInfo,
  // Sessions carry no server state here: there are no transactions to clean up.
  endSessions: () => ({}),
  listDatabases,
  serverStatus,
};
