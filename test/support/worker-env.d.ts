declare namespace Cloudflare {
  interface Env extends Omit<import('../../worker/platform/env').Env, never> {
    /** Base URL of the local stand-ins for outside services (tests only). */
    STAND_INS_URL: string;
    /** The spare dev database test/worker/platform/db-access.test.ts stops, restarts and counts connections on (test/support/spare-devdb.ts). */
    SPARE_MONGODB_URI: string;
    SPARE_DEVDB_CONTROL: string;
  }
}

/** Vite's `?raw` imports: a file's text (test/worker/platform/schedules.test.ts reads wrangler.toml). */
declare module '*?raw' {
  const text: string;
  export default text;
}
