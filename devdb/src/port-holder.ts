import fs from 'node:fs';

const LISTEN = '0A';

/** Socket inodes listening on `port` in a /proc/net/tcp or tcp6 table (any local address). */
export function listeningInodes(table: string, port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes: string[] = [];
  for (const line of table.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    const local = fields[1];
    if (local?.split(':')[1] === hexPort && fields[3] === LISTEN && fields[9]) inodes.push(fields[9]);
  }
  return inodes;
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

export interface PortHolder {
  pid: number;
  command: string;
}

/** The process listening on `port`, found through /proc (Linux only; undefined elsewhere or if hidden). */
export function findPortHolder(port: number): PortHolder | undefined {
  const inodes = new Set(
    ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) => listeningInodes(readText(table), port)),
  );
  if (inodes.size === 0) return undefined;
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) {
        const command = readText(`/proc/${pid}/cmdline`).split('\0').filter(Boolean).join(' ');
        return { pid: Number(pid), command };
      }
    }
  }
  return undefined;
}

/** One line naming who holds `port` and how to free it. */
export function portInUseMessage(port: number, host: string, holder = findPortHolder(port)): string {
  const who = holder ? `process ${holder.pid} (${holder.command || 'unknown command'})` : 'another process';
  const stop = holder ? `stop it with \`kill ${holder.pid}\`` : `find it with \`ss -ltnp 'sport = :${port}'\``;
  return `port ${port} on ${host} is in use by ${who}: ${stop}, or choose another port`;
}
