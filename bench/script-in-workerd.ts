// A bench's own small Worker, its source given as text, bundled with its imports and served in workerd through
// Miniflare: for timing one piece of the project's code (a hash, the word filter) inside the runtime it runs in.
import { build } from 'esbuild';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';

/**
 * Bundles `source` (imports resolved from the project's root) and serves it in workerd with nodejs_compat, at the
 * project's compatibility date; `external` names modules left to the runtime, `durableObjects` binds the Durable
 * Object classes it exports, `discardLogs` drops its console lines unprinted. Dispose of it when done.
 */
export async function scriptInWorkerd(
  source: string,
  options: { loader: 'js' | 'ts'; external?: string[]; durableObjects?: Record<string, string>; discardLogs?: boolean },
): Promise<Miniflare> {
  const bundle = await build({
    stdin: { contents: source, resolveDir: process.cwd(), loader: options.loader },
    bundle: true,
    format: 'esm',
    write: false,
    platform: 'neutral',
    mainFields: ['module', 'main'],
    external: ['node:*', ...(options.external ?? [])],
  });
  return new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: bundle.outputFiles[0]!.text,
      compatibilityDate: '2026-08-15',
      compatibilityFlags: ['nodejs_compat'],
      // Binding name to the class the script exports, each class's objects in this workerd.
      ...(options.durableObjects ? { durableObjects: options.durableObjects } : {}),
      // A bench writing many console lines times the runtime's write, not this process printing them.
      ...(options.discardLogs ? { handleStructuredLogs: () => {} } : {}),
    }),
  );
}
