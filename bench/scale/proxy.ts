import { type ChildProcess, fork } from 'node:child_process';
import { createConnection, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy in front of the dev database that the harness can cut: while cut, open connections are
 * destroyed and new ones refused at once, as a network partition to the cluster looks to the driver.
 * The dev database keeps its data (it runs in memory: stopping it would lose everything).
 */
export async function startProxy(target: string) {
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

type ProxyMessage = { uri: string } | { restored: true };

/**
 * The proxy in a process of its own, driven over IPC: in the harness's process every database byte would
 * wait behind thousands of simulated clients' frames, and the harness would measure its own event loop.
 */
export async function cuttableProxy(target: string) {
  const child: ChildProcess = fork(new URL(import.meta.url).pathname, ['--serve', target], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<ProxyMessage>((resolve, reject) => {
      child.once('message', (message) => resolve(message as ProxyMessage));
      child.once('exit', (code) => reject(new Error(`the database proxy exited with ${code}`)));
    });
  const { uri } = (await next()) as { uri: string };
  return {
    uri,
    async cutFor(ms: number): Promise<void> {
      const restored = next();
      child.send({ cutFor: ms });
      await restored;
    },
    close: async () => {
      child.kill();
    },
  };
}

// Run as the proxy process: serve, and cut when told.
if (process.argv[2] === '--serve' && process.send) {
  const proxy = await startProxy(process.argv[3]!);
  process.on('message', async (message: { cutFor: number }) => {
    await proxy.cutFor(message.cutFor);
    process.send!({ restored: true });
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ uri: proxy.uri });
}
