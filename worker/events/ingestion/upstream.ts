import { LIMITS } from '../../platform/limits';

/** GETs one upstream document as text; anything but a 2xx fails the source's run, naming the address. */
export async function fetchText(url: string, accept: string): Promise<string> {
  const response = await fetch(url, {
    headers: { accept },
    signal: AbortSignal.timeout(LIMITS.ingestion.fetchTimeoutMs),
  });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  return response.text();
}
