// Which Node runs the project: package.json's `engines` range, checked first by scripts/setup.mjs so a Node too old
// for the installed toolchain stops with one line instead of a stack trace from deep inside wrangler or vitest.
import semver from 'semver';

/** The one-line reason `version` cannot run the project, or undefined when `range` admits it. */
export function unsupportedNode(version, range) {
  if (semver.satisfies(version, range)) return undefined;
  return (
    `Node ${version} cannot run this project (package.json engines: ${range}). ` +
    '`npm ci` brings Node 24 into node_modules on Linux x64 and arm64, and every `npm run` script uses it; ' +
    'elsewhere install Node 24 LTS, then run `npm ci` again.'
  );
}
