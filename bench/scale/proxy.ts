import { createConnection, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy in front of the dev database that the harness can cut: while cut, open connections are
 * destroyed and new ones refused at once, as a network partition to the cluster looks to the driver.
 * The dev database keeps its data (it runs in memory: stopping it would lose everything).
 */
export async function cuttableProxy(target: string) {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  let cut = false;
  const server = createServer((client) => {
    if (cut) return client.destroy();
    const upstream = createConnection({ host: hostname, port: Number(port) });
    open.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    uri: `mongodb://127.0.0.1:${address.port}`,
    /** Makes the database unreachable for `ms`. */
    async cutFor(ms: number): Promise<void> {
      cut = true;
      for (const socket of open) socket.destroy();
      open.clear();
      await new Promise((resolve) => setTimeout(resolve, ms));
      cut = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
