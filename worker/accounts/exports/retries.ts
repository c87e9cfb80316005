import { LIMITS } from '../../platform/limits';

const MINUTE_MS = 60_000;

/**
 * What a failed build leads to: another attempt after a wait that doubles each time (LIMITS.dataExports
 * retryAfterMinutes, then twice that, ...), or `failed` once `attempts` builds have been tried.
 */
export function afterFailedBuild(attempts: number, now: Date): { retryAt: Date } | 'give-up' {
  const { attempts: most, retryAfterMinutes } = LIMITS.dataExports;
  if (attempts >= most) return 'give-up';
  const wait = retryAfterMinutes * 2 ** Math.max(0, attempts - 1) * MINUTE_MS;
  return { retryAt: new Date(now.getTime() + wait) };
}
