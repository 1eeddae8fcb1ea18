/**
 * What the build that `npm install` runs (`npm run build:dist`) is made from, as one hash: the
 * sources, the build tools, the compiler settings and the locked dependencies. Plain JavaScript,
 * because it runs before anything is compiled (tools/prepare.js).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Folders whose every file goes into the build, and single files that steer it. */
const INPUT_FOLDERS = ['src', 'tools'];
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'src/web/tsconfig.json'];

/**
 * The files under `folder`, relative to `root`, in a stable order.
 * @param {string} root
 * @param {string} folder
 * @returns {string[]}
 */
function filesUnder(root, folder) {
  const entries = readdirSync(join(root, folder), { withFileTypes: true });
  return entries
    .flatMap((entry) => {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) return filesUnder(root, path);
      return entry.isFile() ? [path] : [];
    })
    .sort();
}

/**
 * The SHA-256 of the build's inputs under `root`: each file's path and content.
 * @param {string} root
 * @returns {string}
 */
export function buildInputsHash(root) {
  const hash = createHash('sha256');
  const files = [
    ...INPUT_FOLDERS.flatMap((folder) => filesUnder(root, folder)),
    ...INPUT_FILES.filter((file) => existsSync(join(root, file))),
  ];
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}
