import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DevDbHandle, startDevDb } from '../../devdb/src/server';

/**
 * A dev database of its own for test/worker/platform/db-access.test.ts, which stops and restarts it and
 * counts its connections: POST /stop and /start on the returned control URL (Worker tests cannot spawn processes).
 */
export async function startSpareDevDb(): Promise<{ uri: string; control: string; close(): Promise<void> }> {
  let devdb: DevDbHandle | undefined = await startDevDb({ port: 0, quiet: true });
  const port = devdb.port;
  const control = createServer(async (req, res) => {
    if (req.url === '/stop') {
      await devdb?.close();
      devdb = undefined;
    } else if (req.url === '/start') {
      devdb ??= await startDevDb({ port, quiet: true });
    }
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  return {
    uri: `mongodb://127.0.0.1:${port}`,
    control: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
    close: async () => {
      control.closeAllConnections();
      await new Promise((resolve) => control.close(resolve));
      await devdb?.close();
    },
  };
}
