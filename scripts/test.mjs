// The full test suite: lint and typecheck run beside vitest instead of before it. Vitest keeps two cores only
// about 80 % busy (it mostly waits on workerd, the dev database and the local stacks), so the static checks
// fit in what it leaves. Their output is printed whole once each ends; the run fails if any of the three fails.
import { spawn } from 'node:child_process';

function run(command, args, { quiet }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) => resolve({ name: command, code: 1, output: String(error) }));
    child.on('exit', (code, signal) =>
      resolve({ name: `${command} ${args.join(' ')}`, code: code ?? 1, signal, output }),
    );
  });
}

const checks = ['lint', 'typecheck'].map((script) =>
  run('npm', ['run', '-s', script], { quiet: true }).then((result) => {
    process.stdout.write(`\n── npm run ${script}: ${result.code === 0 ? 'passed' : 'FAILED'}\n${result.output}\n`);
    return result;
  }),
);
const results = await Promise.all([...checks, run('vitest', ['run', ...process.argv.slice(2)], { quiet: false })]);
const failed = results.filter((result) => result.code !== 0);
for (const result of failed)
  process.stderr.write(`failed: ${result.name} (exit ${result.code}${result.signal ? `, ${result.signal}` : ''})\n`);
process.exit(failed.length ? 1 : 0);
