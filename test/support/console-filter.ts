/**
 * Vitest's `onConsoleLog` for every project: drops the Worker's info lines (one per request and cron run,
 * worker/platform/ops/log-line.ts), thousands in a run and none a sign of failure, so a warning or an error a test
 * did not expect stands out. Tests that assert on lines capture them first (test/support/log-lines.ts).
 */
export function keepConsoleLine(line: string): false | undefined {
  if (!line.startsWith('{"time":')) return undefined;
  try {
    const parsed = JSON.parse(line) as { level?: unknown; kind?: unknown };
    return parsed.level === 'info' && (parsed.kind === 'request' || parsed.kind === 'cron') ? false : undefined;
  } catch {
    return undefined;
  }
}
