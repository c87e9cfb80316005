declare namespace Cloudflare {
  interface Env extends Omit<import('../../worker/env').Env, never> {
    /** Base URL of the local stand-ins for outside services (tests only). */
    STAND_INS_URL: string;
  }
}
