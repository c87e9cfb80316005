/**
 * Media uploads (docs/media.md):
 * 1. A 50 MB video through the Worker on the local stack (scripts/dev.ts: wrangler dev simulating the MEDIA bucket,
 *    the dev database): POST /api/media/uploads, the parts one after another, complete. Beside it, in the same run,
 *    the same bytes written straight to an R2 binding simulated by Miniflare: the same multipart upload, and one put.
 * 2. Stripping the metadata of a 12-megapixel phone JPEG (4000 × 3000, EXIF with GPS, XMP, comments), generated here.
 * Each figure is the median of RUNS runs.
 * Run: npx tsx bench/media-upload.ts   (RUNS=3, MB=50, PORT=8811 override)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { startDevDb } from '../devdb/src/server.js';
import { phoneJpeg, video } from '../test/support/media-fixtures.js';
import { LIMITS } from '../worker/platform/limits.js';
import { stripJpeg } from '../worker/social/media/jpeg.js';
import { startLocalStack } from './local-stack.js';

const RUNS = Number(process.env.RUNS ?? 3);
const MB = Number(process.env.MB ?? 50);
const PORT = Number(process.env.PORT ?? 8811);
const PART = LIMITS.media.partBytes;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(0)} ms`;
const rate = (bytes: number, millis: number) => `${(bytes / 1024 / 1024 / (millis / 1000)).toFixed(1)} MB/s`;
async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

const file = video({ totalBytes: MB * 1024 * 1024, durationMs: 95_000 });
const parts = Array.from({ length: Math.ceil(file.length / PART) }, (_, i) => file.subarray(i * PART, (i + 1) * PART));

const devdb = await startDevDb({ port: 0, quiet: true });
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-media-'));
const stack = await startLocalStack({ mongodbUri: `${devdb.uri}/bench_media`, port: PORT, stateDir });
const mf = new Miniflare(
  convertV4MiniflareOptions({
    modules: true,
    script: 'export default { fetch() { return new Response(null, { status: 204 }); } };',
    r2Buckets: ['MEDIA'],
  }),
);
try {
  const registered = await fetch(`${stack.url}/api/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench rider', email: `bench-${Date.now()}@bench.test`, password: 'bench-password' }),
  });
  const { token } = (await registered.json()) as { token: string };
  const api = (p: string, init: RequestInit) =>
    fetch(`${stack.url}/api/media${p}`, { ...init, headers: { 'x-auth-token': token, ...init.headers } });

  const throughWorker = async () => {
    const started = await api('/uploads', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'video/mp4', bytes: file.length }),
    });
    const { uploadId } = (await started.json()) as { uploadId: string };
    for (const [i, part] of parts.entries()) {
      const res = await api(`/uploads/${uploadId}/parts/${i + 1}`, { method: 'PUT', body: part });
      if (res.status !== 200) throw new Error(`part ${i + 1}: ${res.status} ${await res.text()}`);
    }
    const done = await api(`/uploads/${uploadId}/complete`, { method: 'POST' });
    if (done.status !== 200) throw new Error(`complete: ${done.status} ${await done.text()}`);
  };
  const bucket = await mf.getR2Bucket('MEDIA');
  const directMultipart = async () => {
    const upload = await bucket.createMultipartUpload(`bench/${crypto.randomUUID()}`);
    const uploaded = [];
    for (const [i, part] of parts.entries()) uploaded.push(await upload.uploadPart(i + 1, part));
    await upload.complete(uploaded);
  };
  const directPut = () => bucket.put(`bench/${crypto.randomUUID()}`, file);

  const figures = { worker: [] as number[], multipart: [] as number[], put: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    figures.worker.push(await timed(throughWorker));
    figures.multipart.push(await timed(directMultipart));
    figures.put.push(await timed(directPut));
  }
  console.log(`${MB} MB video, ${parts.length} parts of ${PART / 1024 / 1024} MiB, median of ${RUNS}:`);
  console.log(
    `  through the Worker (start, ${parts.length} PUTs, complete): ${ms(median(figures.worker))} (${rate(file.length, median(figures.worker))})`,
  );
  console.log(
    `  straight to the binding, multipart:            ${ms(median(figures.multipart))} (${rate(file.length, median(figures.multipart))})`,
  );
  console.log(
    `  straight to the binding, one put:              ${ms(median(figures.put))} (${rate(file.length, median(figures.put))})`,
  );
} finally {
  await mf.dispose();
  await stack.stop();
  await devdb.close();
  fs.rmSync(stateDir, { recursive: true, force: true });
}

// A gradient with grain, so the file is about as large as a detailed phone photo (a bare gradient compresses to 0.5 MB).
const grain = new Uint8Array(4000 * 3000 * 4).map((_, i) =>
  i % 4 === 3 ? 255 : ((i >> 2) % 4000) / 16 + (((i * 2654435761) >>> 24) & 31),
);
const photo = phoneJpeg(4000, 3000, 6, grain);
const strips: number[] = [];
for (let run = 0; run < Math.max(RUNS, 5); run++) strips.push(await timed(async () => stripJpeg(photo)));
console.log(
  `Metadata stripped from a 12-megapixel JPEG (${(photo.length / 1024 / 1024).toFixed(1)} MB), median of ${strips.length}: ${median(strips).toFixed(1)} ms`,
);
