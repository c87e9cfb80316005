// The Worker with one more route, for bench/data-export.ts: builds a rider's export inside workerd, with a request's
// store (over the database gateway) and the MEDIA bucket, as the background builder does.
import { ObjectId } from 'mongodb';
import { writeExportArchive } from '../worker/accounts/exports/archive';
import { PERSONAL_DATA } from '../worker/data';
import worker from '../worker/index';
import { openRequestConnection } from '../worker/platform/db/connection';
import type { Env } from '../worker/platform/env';

export * from '../worker/index';

export default {
  ...worker,
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname !== '/__bench/export') return worker.fetch(request, env, ctx);
    const { store, release } = openRequestConnection(env);
    try {
      const started = performance.now();
      const result = await writeExportArchive(
        store,
        env.MEDIA,
        new ObjectId(url.searchParams.get('rider') ?? ''),
        url.searchParams.get('key') ?? '',
        { personalData: PERSONAL_DATA, stillWanted: async () => true },
      );
      return Response.json({ ms: performance.now() - started, result });
    } finally {
      await release();
    }
  },
} satisfies ExportedHandler<Env>;
