/**
 * Builds the web application into dist/web/: the five pages, and under assets/ one script per
 * page and one stylesheet (ours with Leaflet's, whose images land beside it), and the other files
 * of src/web/pages (the icon). esbuild bundles
 * (type checking is tsc's job: src/web/tsconfig.json), so no CDN and nothing fetched at run time.
 */
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WEB = `${ROOT}src/web/`;
const OUT = `${ROOT}dist/web/`;

async function main(): Promise<void> {
  await rm(OUT, { recursive: true, force: true });
  await mkdir(`${OUT}assets`, { recursive: true });
  await build({
    entryPoints: {
      index: `${WEB}index.ts`,
      project: `${WEB}project.ts`,
      print: `${WEB}print.ts`,
      driver: `${WEB}driver.ts`,
      track: `${WEB}track.ts`,
      app: `${WEB}app.css`,
      // The driver page's own stylesheet: a phone on mobile data loads no map styles.
      'driver-page': `${WEB}driver.css`,
      // The customer's tracking page: as light as the driver's.
      'track-page': `${WEB}track.css`,
    },
    outdir: `${OUT}assets`,
    bundle: true,
    format: 'esm',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    minify: true,
    sourcemap: true,
    loader: { '.png': 'file', '.svg': 'file' },
    assetNames: '[name]',
    logLevel: 'warning',
  });
  for (const page of await readdir(`${WEB}pages`)) {
    if (page.endsWith('.html')) await copyFile(`${WEB}pages/${page}`, `${OUT}${page}`);
    else await copyFile(`${WEB}pages/${page}`, `${OUT}assets/${page}`);
  }
  const images = `${ROOT}node_modules/leaflet/dist/images/`;
  for (const image of await readdir(images)) await copyFile(`${images}${image}`, `${OUT}assets/${image}`);
  await buildDriverWorker();
}

/**
 * The driver page's service worker, a classic script (not a module: every phone browser runs
 * those), with a version made of the driver page's files: a build that changes them gives a new
 * worker, which drops the caches of the old one (src/web/driver-sw.ts).
 */
async function buildDriverWorker(): Promise<void> {
  const hash = createHash('sha256');
  for (const file of ['driver.html', 'assets/driver.js', 'assets/driver-page.css']) hash.update(await readFile(`${OUT}${file}`));
  await build({
    entryPoints: [`${WEB}driver-sw.ts`],
    outfile: `${OUT}assets/driver-sw.js`,
    bundle: true,
    format: 'iife',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    minify: true,
    define: { __DRIVER_SW_VERSION__: JSON.stringify(hash.digest('hex').slice(0, 16)) },
    logLevel: 'warning',
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`build-web: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
