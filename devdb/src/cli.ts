import { parseArgs } from 'node:util';
import { startDevDb } from './server.js';

const USAGE = `usage: tsx devdb/src/cli.ts [--port N] [--host H] [--data DIR | --memory] [--ttl-sweep-ms N] [--quiet]
  --port          TCP port (env DB_PORT, default 27018, 0 = ephemeral)
  --host          bind address (default 127.0.0.1)
  --data          persistence folder (default .devdb-data)
  --memory        keep data in memory only
  --ttl-sweep-ms  TTL sweeper interval (default 1000)
  --quiet         no ready line or warnings`;

function parseNumber(raw: string | undefined, what: string): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`invalid ${what}: ${raw}`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      memory: { type: 'boolean' },
      'ttl-sweep-ms': { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const handle = await startDevDb({
    port: parseNumber(values.port ?? (process.env.DB_PORT || undefined), 'port') ?? 27018,
    host: values.host ?? '127.0.0.1',
    dataDir: values.memory ? undefined : (values.data ?? '.devdb-data'),
    ttlSweepMs: parseNumber(values['ttl-sweep-ms'], 'ttl sweep interval'),
    quiet: values.quiet ?? false,
  });
  const shutdown = (): void => {
    handle.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`devdb: error while closing: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((err: unknown) => {
  process.stderr.write(`devdb: ${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
  process.exit(1);
});
