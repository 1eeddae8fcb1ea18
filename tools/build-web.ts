/**
 * Builds the web application into dist/web/: the five pages, and under assets/ one script per
 * page and one stylesheet (ours with Leaflet's, whose images land beside it), and the other files
 * of src/web/pages (the icon). esbuild bundles
 * (type checking is tsc's job: src/web/tsconfig.json), so no CDN and nothing fetched at run time.
 */
import { build, type Metafile } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WEB = `${ROOT}src/web/`;
const OUT = `${ROOT}dist/web/`;

async function main(): Promise<void> {
  await rm(OUT, { recursive: true, force: true });
  await mkdir(`${OUT}assets`, { recursive: true });
  const result = await build({
    entryPoints: {
      index: `${WEB}index.ts`,
      project: `${WEB}project.ts`,
      print: `${WEB}print.ts`,
      driver: `${WEB}driver.ts`,
      track: `${WEB}track.ts`,
      app: `${WEB}app.css`,
      // The driver page's own stylesheet: a phone on mobile data loads no map styles with the list.
      'driver-page': `${WEB}driver.css`,
      // The customer's tracking page: as light as the driver's.
      'track-page': `${WEB}track.css`,
      // …and its small map's, loaded with the map (driver-map.ts).
      'driver-map-style': `${WEB}styles/driver-map.css`,
    },
    outdir: `${OUT}assets`,
    bundle: true,
    format: 'esm',
    // Shared code and the driver page's map (a dynamic import) in chunks: the phone loads the map's code apart from the list's.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    minify: true,
    sourcemap: true,
    loader: { '.png': 'file', '.svg': 'file' },
    assetNames: '[name]',
    logLevel: 'warning',
    metafile: true,
  });
  for (const page of await readdir(`${WEB}pages`)) {
    if (page.endsWith('.html')) await copyFile(`${WEB}pages/${page}`, `${OUT}${page}`);
    else await copyFile(`${WEB}pages/${page}`, `${OUT}assets/${page}`);
  }
  const images = `${ROOT}node_modules/leaflet/dist/images/`;
  for (const image of await readdir(images)) await copyFile(`${images}${image}`, `${OUT}assets/${image}`);
  await buildDriverWorker(driverPageAssets(result.metafile));
}

/**
 * Every file the driver page may load: its script with the chunks it imports (statically, and the
 * small map's dynamically), its stylesheets and the icon. The service worker keeps them all, or an
 * offline reload would find driver.js and fail on its first chunk.
 */
function driverPageAssets(metafile: Metafile): string[] {
  const found = new Set<string>();
  const visit = (output: string): void => {
    if (found.has(output) || metafile.outputs[output] === undefined) return;
    found.add(output);
    for (const imported of metafile.outputs[output].imports) visit(imported.path);
  };
  const prefix = relative(ROOT, `${OUT}assets/`).split(sep).join('/');
  visit(`${prefix}/driver.js`);
  const scripts = [...found].filter((output) => output.endsWith('.js')).map((output) => `/assets/${output.slice(prefix.length + 1)}`);
  return [...scripts.sort(), '/assets/driver-page.css', '/assets/driver-map-style.css', '/assets/favicon.svg'];
}

/**
 * The driver page's service worker, a classic script (not a module: every phone browser runs
 * those), with a version made of the driver page's files: a build that changes them gives a new
 * worker, which drops the caches of the old one (src/web/driver-sw.ts).
 */
async function buildDriverWorker(assets: string[]): Promise<void> {
  const hash = createHash('sha256');
  for (const file of ['/driver.html', ...assets]) hash.update(await readFile(`${OUT}${file.slice(1)}`));
  await build({
    entryPoints: [`${WEB}driver-sw.ts`],
    outfile: `${OUT}assets/driver-sw.js`,
    bundle: true,
    format: 'iife',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    minify: true,
    define: { __DRIVER_SW_VERSION__: JSON.stringify(hash.digest('hex').slice(0, 16)), __DRIVER_ASSETS__: JSON.stringify(assets) },
    logLevel: 'warning',
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`build-web: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
