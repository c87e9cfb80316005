/** What the test needs of worker/app.ts, typed here: the Node typecheck does not load the Worker's runtime types. */
interface WorkerApp {
  createApp(): { request(path: string, init: RequestInit, env: object, ctx: object): Promise<Response> };
}

// Imported by URL so the Node typecheck stays out of the Worker's sources; vitest loads them as it does any module.
const APP_MODULE = new URL('../../worker/app.ts', import.meta.url).href;

/**
 * The document `GET /api/openapi.json` answers, asked of the Worker's own app in Node: the Node tools that
 * check it (validators, type generators) cannot run inside workerd, and the route needs no binding.
 */
export async function servedApiDocument<Document = Record<string, unknown>>(): Promise<Document> {
  const { createApp } = (await import(/* @vite-ignore */ APP_MODULE)) as WorkerApp;
  const noBackgroundWork = { waitUntil() {}, passThroughOnException() {}, props: {} };
  // The route never reads the database; the URI only lets the database middleware build its unused handle.
  const env = { MONGODB_URI: 'mongodb://127.0.0.1:1/unused' };
  const res = await createApp().request('/api/openapi.json', {}, env, noBackgroundWork);
  if (res.status !== 200) throw new Error(`GET /api/openapi.json answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Document;
}
