import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { findPortHolder, listeningInodes, portInUseMessage } from '../../../devdb/src/port-holder';

const table = [
  '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
  '   0: 0100007F:6996 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 35155 1 0',
  '   1: 00000000:6996 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 35200 1 0',
  '   2: 0100007F:2253 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 28003 1 0',
].join('\n');

describe('port holder', () => {
  it('reads listening sockets of one port from a /proc/net/tcp table', () => {
    expect(listeningInodes(table, 27030)).toEqual(['35155']);
    expect(listeningInodes(table, 8787)).toEqual(['28003']);
    expect(listeningInodes(table, 1)).toEqual([]);
  });

  it('finds the process that listens on a port', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const holder = findPortHolder(port);
      expect(holder?.pid).toBe(process.pid);
      expect(portInUseMessage(port, '127.0.0.1', holder)).toMatch(
        new RegExp(
          `^port ${port} on 127.0.0.1 is in use by process ${process.pid} \\(.+\\): stop it with \`kill ${process.pid}\``,
        ),
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('says how to look when it cannot tell', () => {
    expect(portInUseMessage(27018, '127.0.0.1', undefined)).toBe(
      "port 27018 on 127.0.0.1 is in use by another process: find it with `ss -ltnp 'sport = :27018'`, or choose another port",
    );
  });
});
