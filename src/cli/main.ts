/** Entry point of `bin/routeplan`. */
import { main } from './program.js';
import { reportError } from './present.js';

// Whatever escapes the commands (a failing timer, a stray rejection) still ends in one line and exit 1.
const jsonRequested = process.argv.includes('--json');
process.on('uncaughtException', (error) => {
  process.exitCode = reportError(error, { json: jsonRequested });
  process.exit();
});
process.on('unhandledRejection', (reason) => {
  process.exitCode = reportError(reason, { json: jsonRequested });
  process.exit();
});

// A reader that stops early (`routeplan solve … | head`) is not an error of ours.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

await main();
