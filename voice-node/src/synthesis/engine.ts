import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

/** One sentence being synthesised: MP3 bytes (44.1 kHz, 128 kbps CBR, mono) and a way to cut it off. */
export interface Synthesis {
  audio: Readable;
  /** Stops at once, leaving no process behind; safe to call more than once. */
  stop(): void;
  /** The leader's process id, which is also its process group id (tests look for leftovers by it). */
  pid: number | undefined;
}

/** A speech engine: the offline espeak-ng one or OpenAI speech (synthesis/espeak.ts, synthesis/openai.ts). */
export interface SpeechEngine {
  readonly name: string;
  start(text: string): Synthesis;
}

/** lame's arguments for the voice box's one output format, reading from stdin and writing to stdout. */
export const LAME_OUTPUT = ['--quiet', '--resample', '44.1', '-b', '128', '--cbr', '-m', 'm'] as const;

/**
 * Starts a command as the leader of a new process group. Killing only a shell leaves espeak-ng and
 * lame streaming (the design notes, Offline voice), so stop() kills the whole group.
 */
export function spawnGroup(command: string, args: string[]): { child: ChildProcess; stop(): void } {
  const child = spawn(command, args, { detached: true, stdio: ['pipe', 'pipe', 'ignore'] });
  // A write to a killed pipeline fails with EPIPE: expected after a stop, never worth a crash.
  child.stdin!.on('error', () => undefined);
  child.on('error', () => undefined);
  let stopped = false;
  return {
    child,
    stop() {
      if (stopped || !child.pid) return;
      stopped = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group has already exited.
      }
      child.stdout!.destroy();
    },
  };
}
