/**
 * Builds the web application into dist/web/: the four pages, and under assets/ one script per
 * page and one stylesheet (ours with Leaflet's, whose images land beside it), and the other files
 * of src/web/pages (the icon). esbuild bundles
 * (type checking is tsc's job: src/web/tsconfig.json), so no CDN and nothing fetched at run time.
 */
import { build } from 'esbuild';
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
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
      app: `${WEB}app.css`,
      // The driver page's own stylesheet: a phone on mobile data loads no map styles with the list.
      'driver-page': `${WEB}driver.css`,
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
  });
  for (const page of await readdir(`${WEB}pages`)) {
    if (page.endsWith('.html')) await copyFile(`${WEB}pages/${page}`, `${OUT}${page}`);
    else await copyFile(`${WEB}pages/${page}`, `${OUT}assets/${page}`);
  }
  const images = `${ROOT}node_modules/leaflet/dist/images/`;
  for (const image of await readdir(images)) await copyFile(`${images}${image}`, `${OUT}assets/${image}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`build-web: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
