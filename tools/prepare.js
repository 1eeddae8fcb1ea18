/**
 * npm's `prepare`: builds dist/ (`npm run build:dist`) unless it was built from these very inputs.
 * `npm install` runs it, and so does the first `npx routeplan` in a clone: npm installs the folder
 * into its npx cache as a link and runs the link's `prepare`, which would otherwise be a whole
 * second build before the first plan. The hash of the inputs (tools/build-inputs.js) is kept in
 * dist/ beside what it built, so deleting dist/ or changing any input builds again.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import { buildInputsHash } from './build-inputs.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const STAMP = `${ROOT}dist/.build-inputs`;
/** What a run of routeplan needs from the build: the command line bundle and the web application. */
const OUTPUTS = ['dist/src/bundle/main.js', 'dist/src/bundle/worker.js', 'dist/web/index.html'];

/** @param {string} inputs */
function upToDate(inputs) {
  if (!existsSync(STAMP) || readFileSync(STAMP, 'utf8').trim() !== inputs) return false;
  return OUTPUTS.every((output) => existsSync(`${ROOT}${output}`));
}

function main() {
  const inputs = buildInputsHash(ROOT);
  if (upToDate(inputs)) {
    process.stdout.write('routeplan: dist/ is up to date with its sources; no build needed\n');
    return;
  }
  // npm_execpath is the npm that runs this script: the same npm, whichever is first on PATH.
  const npm = process.env.npm_execpath;
  const build = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build:dist'], { cwd: ROOT, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build:dist'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) {
    process.exitCode = build.status ?? 1;
    return;
  }
  writeFileSync(STAMP, `${inputs}\n`);
}

main();
