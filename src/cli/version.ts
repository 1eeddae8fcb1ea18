/** routeplan's version, from its package.json (two levels above the compiled dist/src/cli/). */
import { readFileSync } from 'node:fs';

export function packageVersion(): string {
  try {
    const url = new URL('../../../package.json', import.meta.url);
    const pkg = JSON.parse(readFileSync(url, 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
