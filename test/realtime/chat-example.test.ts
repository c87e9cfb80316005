import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { type RealtimeStack, startRealtimeStack } from '../support/realtime-stack';

// The two scripts docs/realtime.md tells a client developer to run, run as documented.

let stack: RealtimeStack;
beforeAll(async () => {
  stack = await startRealtimeStack({ build: inject('workerBuild') });
}, 60_000);
afterAll(() => stack?.stop());

async function account(name: string) {
  const email = `${name.toLowerCase()}-${crypto.randomUUID().slice(0, 6)}@example.test`;
  const password = 'chat-example-password';
  const { body } = await stack.api('/users', { body: { name, email, password } });
  return { id: body.user._id as string, email, password };
}

function run(script: string, args: string[]) {
  const child = spawn(process.execPath, [`docs/examples/${script}`, ...args], {
    env: { ...process.env, RIDER_URL: stack.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  /** Resolves once the script has printed `text`, however its output is split into chunks. */
  const printed = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!output.includes(text)) return;
        child.stdout.off('data', check);
        resolve();
      };
      child.stdout.on('data', check);
      check();
    });
  return { child, output: () => output, exited, printed };
}

it('lets two riders chat with the example scripts', { timeout: 30_000 }, async () => {
  const [listener, sender] = await Promise.all([account('Lee'), account('Sam')]);
  const listen = run('chat-listen.mjs', [listener.email, listener.password]);
  try {
    await listen.printed(`Lee is listening. Your id: ${listener.id}`);
    const send = run('chat-send.mjs', [sender.email, sender.password, listener.id, 'Session at 5?']);
    expect(await send.exited).toBe(0);
    // The typing line may come before or after the sender's own line: the reply is last.
    const lines = send.output().trim().split('\n');
    expect(lines.sort()).toEqual(
      ['Lee: Got it: "Session at 5?". See you at the park!', 'Sam: Session at 5?', '… typing'].sort(),
    );
    expect(send.output().trim().endsWith('See you at the park!')).toBe(true);
    // The listener prints its own line after it sent the reply, which may reach the sender first.
    await listen.printed('Sam: Session at 5?\n(replied)');
  } finally {
    listen.child.kill();
  }
});
