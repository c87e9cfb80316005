import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A port no process listens on, chosen below the kernel's ephemeral range: a port taken from that range (by
 * listening on 0) can be handed to any outgoing connection between our check and the child's bind, which a
 * busy suite hit as "Address already in use". Below it, only another listener can take the port.
 */
export async function freePort(): Promise<number> {
  const low = 10_000;
  const high = ephemeralLow();
  for (;;) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await canListen(port)) return port;
  }
}

/** The first port of the kernel's ephemeral range. */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (low > 12_000) return low;
  } catch {
    // No /proc to read: Linux's default range below.
  }
  return 32_768;
}

function canListen(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A dev database started by hand, as the README's `npm run devdb` recovery step does. */
export async function startDevDbByHand(port: number, dataDir: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'devdb/src/cli.ts', '--port', String(port), '--data', dataDir],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => /devdb ready/.test(chunk.toString()) && resolve());
    child.on('exit', (code) => reject(new Error(`devdb exited with ${code}`)));
  });
  return child;
}

export async function stopProcess(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill(signal);
  await exited;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
