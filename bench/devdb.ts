/**
 * devdb throughput through the official driver, in persistent mode as the dev
 * stack runs it: sequential awaited insertOne calls, then findOne by an
 * indexed field. Run: npx tsx bench/devdb.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { startDevDb } from '../devdb/src/server.js';

const INSERTS = 10_000;
const FINDS = 1_000;

function report(label: string, ops: number, ms: number): void {
  const perSec = Math.round((ops / ms) * 1000);
  process.stdout.write(
    `${label.padEnd(28)} ${String(ops).padStart(6)} ops  ${ms.toFixed(0).padStart(6)} ms  ${String(perSec).padStart(7)} ops/s\n`,
  );
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'devdb-bench-'));
  const server = await startDevDb({ port: 0, dataDir, quiet: true });
  const client = new MongoClient(server.uri);
  try {
    await client.connect();
    const items = client.db('bench').collection('items');
    await items.createIndex({ sku: 1 }, { unique: true });

    let start = performance.now();
    for (let i = 0; i < INSERTS; i++) {
      await items.insertOne({ sku: `sku-${i}`, n: i, name: `item ${i}`, tags: ['a', 'b'], createdAt: new Date() });
    }
    report('insertOne (sequential)', INSERTS, performance.now() - start);

    start = performance.now();
    for (let i = 0; i < FINDS; i++) {
      const sku = `sku-${(i * 7919) % INSERTS}`;
      const doc = await items.findOne({ sku });
      if (!doc) throw new Error(`missing ${sku}`);
    }
    report('findOne by indexed field', FINDS, performance.now() - start);
  } finally {
    await client.close();
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
