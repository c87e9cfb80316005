// The bench's own servers as child processes under tsx: started once they say they are ready, stopped on exit.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Starts a child process and resolves once a line of its output matches `ready`, with the match. */
export function startChild(
  args: string[],
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray; said: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  process.once('exit', () => child.kill('SIGTERM'));
  return new Promise((resolve, reject) => {
    let said = '';
    const onLine = (line: string) => {
      said += `${line}\n`;
      const match = ready.exec(line);
      if (match) resolve({ child, match, said: () => said });
    };
    createInterface({ input: child.stdout! }).on('line', onLine);
    createInterface({ input: child.stderr! }).on('line', onLine);
    child.on('exit', (code) => reject(new Error(`${args[0]} exited with ${code}:\n${said}`)));
  });
}

/** Stops a child process and resolves once it has exited. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  return exited;
}
