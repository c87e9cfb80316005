import { vi } from 'vitest';

/** Every console line the Worker writes while `capture` runs, as text, in order. */
export async function captureLogLines(run: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const keep = (...args: unknown[]) => {
    lines.push(args.map((arg) => (typeof arg === 'string' ? arg : String(arg))).join(' '));
  };
  const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation(keep),
  );
  try {
    await run();
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
