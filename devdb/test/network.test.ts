import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevDbHandle, startDevDb } from '../src/server.js';

// The simulated network (--latency-ms, --handshake-ms) and serverStatus.connections (bench/data-path.ts counts with it).

let server: DevDbHandle;
beforeAll(async () => {
  server = await startDevDb({ port: 0, quiet: true, latencyMs: 40, handshakeMs: 150 });
});
afterAll(async () => {
  await server.close();
});

async function connections(client: MongoClient): Promise<{ current: number; totalCreated: number }> {
  const status = await client.db('admin').command({ serverStatus: 1 });
  return status.connections;
}

describe('devdb simulated network', () => {
  it('delays the first reply of a connection by handshake + latency and every later one by latency', async () => {
    const client = new MongoClient(server.uri, { maxPoolSize: 1, serverMonitoringMode: 'poll' });
    try {
      let started = Date.now();
      await client.db('net').command({ ping: 1 });
      // The monitor's and the pool's connections each pay the handshake once.
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
      started = Date.now();
      await client.db('net').command({ ping: 1 });
      const warm = Date.now() - started;
      expect(warm).toBeGreaterThanOrEqual(38);
      expect(warm).toBeLessThan(150);
    } finally {
      await client.close();
    }
  });

  it('counts connections (current, totalCreated) and operations (opcounters) in serverStatus as MongoDB does', async () => {
    const watcher = new MongoClient(server.uri, { maxPoolSize: 1, serverMonitoringMode: 'poll' });
    try {
      const before = await connections(watcher);
      const other = new MongoClient(server.uri, { maxPoolSize: 1, serverMonitoringMode: 'poll' });
      await other.db('net').command({ ping: 1 });
      const during = await connections(watcher);
      expect(during.totalCreated - before.totalCreated).toBe(2);
      expect(during.current - before.current).toBe(2);
      await other.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const after = await connections(watcher);
      expect(after.current).toBe(before.current);
      expect(after.totalCreated).toBe(during.totalCreated);
      const { opcounters } = await watcher.db('admin').command({ serverStatus: 1 });
      await watcher.db('net').collection('c').insertOne({ a: 1 });
      await watcher.db('net').collection('c').findOne({});
      const later = (await watcher.db('admin').command({ serverStatus: 1 })).opcounters;
      expect([later.insert - opcounters.insert, later.query - opcounters.query]).toEqual([1, 1]);
    } finally {
      await watcher.close();
    }
  });
});
