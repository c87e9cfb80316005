import { parseArgs } from 'node:util';
import { portInUseMessage } from './port-holder.js';
import { startDevDb } from './server.js';

const USAGE = `usage: tsx devdb/src/cli.ts [--port N] [--host H] [--data DIR | --memory] [--ttl-sweep-ms N]
       [--latency-ms N] [--handshake-ms M] [--quiet]
  --port          TCP port (env DB_PORT, default 27018, 0 = ephemeral)
  --host          bind address (default 127.0.0.1)
  --data          persistence folder (default .devdb-data)
  --memory        keep data in memory only
  --ttl-sweep-ms  TTL sweeper interval (default 1000)
  --latency-ms    delay every reply by N ms, a simulated network (env DEVDB_LATENCY_MS, default 0)
  --handshake-ms  delay the first reply on each new connection by M ms more, standing in for
                  TCP, TLS and authentication (env DEVDB_HANDSHAKE_MS, default 0)
  --quiet         no ready line or warnings`;

/** Bad arguments: the only errors that print the usage text. */
class UsageError extends Error {}

function parseNumber(raw: string | undefined, what: string): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`invalid ${what}: ${raw}`);
  return n;
}

function parseCommandLine() {
  try {
    return parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        data: { type: 'string' },
        memory: { type: 'boolean' },
        'ttl-sweep-ms': { type: 'string' },
        'latency-ms': { type: 'string' },
        'handshake-ms': { type: 'string' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

async function main(): Promise<void> {
  const { values } = parseCommandLine();
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = parseNumber(values.port ?? (process.env.DB_PORT || undefined), 'port') ?? 27018;
  const host = values.host ?? '127.0.0.1';
  const ttlSweepMs = parseNumber(values['ttl-sweep-ms'], 'ttl sweep interval');
  const latencyMs = parseNumber(values['latency-ms'] ?? (process.env.DEVDB_LATENCY_MS || undefined), 'latency');
  const handshakeMs = parseNumber(values['handshake-ms'] ?? (process.env.DEVDB_HANDSHAKE_MS || undefined), 'handshake');
  const starting = startDevDb({
    port,
    host,
    dataDir: values.memory ? undefined : (values.data ?? '.devdb-data'),
    ttlSweepMs,
    latencyMs,
    handshakeMs,
    quiet: values.quiet ?? false,
  }).catch((err: NodeJS.ErrnoException) => {
    throw err.code === 'EADDRINUSE' ? new Error(portInUseMessage(port, host)) : err;
  });
  // Handlers are in place before the ready line, so a signal sent right after it still closes cleanly.
  const shutdown = (): void => {
    starting
      .then((handle) => handle.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          process.stderr.write(`devdb: error while closing: ${String(err)}\n`);
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await starting;
}

main().catch((err: unknown) => {
  const message = (err instanceof Error ? err.message : String(err)).replace(/^devdb: /, '');
  // A runtime failure (port taken, folder locked) is one line; only bad arguments get the usage text.
  process.stderr.write(`devdb: ${message}\n${err instanceof UsageError ? `${USAGE}\n` : ''}`);
  process.exit(err instanceof UsageError ? 2 : 1);
});
