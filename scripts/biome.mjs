#!/usr/bin/env node
// Runs the Biome CLI from its platform package. The npm registry these machines reach does
// not carry every platform package `@biomejs/biome` lists, so `npm ci` could not install
// the wrapper; package.json names the Linux builds directly as optional dependencies.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const platformPackage = `@biomejs/cli-${process.platform}-${process.arch}`;
let binary;
try {
  binary = require.resolve(`${platformPackage}/biome`);
} catch {
  console.error(
    `biome: no ${platformPackage} installed. package.json lists the Linux x64 and arm64 builds; add yours to optionalDependencies at the same version.`,
  );
  process.exit(2);
}
const { status } = spawnSync(binary, process.argv.slice(2), { stdio: 'inherit' });
process.exit(status ?? 1);
