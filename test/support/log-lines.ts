import { vi } from 'vitest';

/** Every console line the Worker writes while `run` runs, as text, in order; `run` may read the lines so far. */
export async function captureLogLines(run: (soFar: readonly string[]) => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const keep = (...args: unknown[]) => {
    lines.push(args.map((arg) => (typeof arg === 'string' ? arg : String(arg))).join(' '));
  };
  const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation(keep),
  );
  try {
    await run(lines);
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return lines;
}

/** The secrets found in log lines: each `secrets` entry that any line holds, case-insensitively. */
export function leakedSecrets(lines: string[], secrets: Record<string, string>): string[] {
  const text = lines.join('\n').toLowerCase();
  return Object.entries(secrets)
    .filter(([, secret]) => text.includes(secret.toLowerCase()))
    .map(([what]) => what);
}

/** The event lines (worker/platform/ops/log-line.ts `logEvent`) of one event among `lines`, parsed. */
export function eventLines(lines: string[], event: string): Record<string, unknown>[] {
  return lines.flatMap((line) => {
    try {
      const parsed = JSON.parse(line);
      return parsed?.kind === 'event' && parsed.event === event ? [parsed] : [];
    } catch {
      return [];
    }
  });
}
