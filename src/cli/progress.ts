/**
 * The solve spinner on stderr: elapsed time and the best plan so far. Only on a terminal and
 * never with --quiet, so that logs and pipes stay clean.
 */
import type { Ora } from 'ora';
import type { SolveProgress } from '../solver/types.js';

/**
 * A spinner on stderr, handed to `ready` unless `stopped()` by the time it loads: ora is loaded
 * only when a spinner is shown, since loading it builds Unicode tables (some 30 ms of a cold start,
 * issue 26) that a solve writing JSON to a pipe never uses.
 */
function loadSpinner(color: boolean, stopped: () => boolean, ready: (spinner: Ora) => void): void {
  void import('ora').then(({ default: ora }) => {
    if (!stopped()) ready(ora({ stream: process.stderr, discardStdin: false, color: color ? 'cyan' : false }));
  });
}

export interface SolveSpinner {
  update(progress: SolveProgress): void;
  note(text: string): void;
  stop(finalText?: string): void;
}

const REFRESH_MS = 200;

/**
 * A spinner needs a real terminal: some pseudo-terminals report a width of 0, with which the
 * spinner cannot compute how many lines to redraw.
 */
export function spinnerAllowed(stream: { isTTY?: boolean; columns?: number }, env: NodeJS.ProcessEnv = process.env): boolean {
  // A dumb terminal cannot redraw a line: the spinner's frames would pile up.
  return stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0 && env.TERM !== 'dumb';
}

export function startSolveSpinner(options: { enabled: boolean; color: boolean }): SolveSpinner {
  if (!options.enabled) return { update: () => undefined, note: () => undefined, stop: () => undefined };
  const started = Date.now();
  let best: SolveProgress | null = null;
  let note = '';
  let spinner: Ora | null = null;
  let stopped = false;
  const render = (): void => {
    if (spinner) spinner.text = spinnerText(Date.now() - started, best, note);
  };
  loadSpinner(
    options.color,
    () => stopped,
    (loaded) => {
      spinner = loaded;
      render();
      loaded.start();
    },
  );
  // The solver reports only when it improves; the clock must move in between.
  const timer = setInterval(render, REFRESH_MS);
  timer.unref();
  const symbol = options.color ? '\u001b[32m✔\u001b[39m' : '✔';
  return {
    update(progress) {
      best = progress;
      render();
    },
    note(text) {
      note = text;
      render();
    },
    stop(finalText) {
      stopped = true;
      clearInterval(timer);
      // A solve done before the spinner loaded still ends with its line.
      if (spinner === null) {
        if (finalText !== undefined) process.stderr.write(`${symbol} ${finalText}\n`);
      } else if (finalText === undefined) spinner.stop();
      else spinner.stopAndPersist({ symbol, text: finalText });
    },
  };
}

export function spinnerText(elapsedMs: number, best: SolveProgress | null, note = ''): string {
  const elapsed = `${(elapsedMs / 1000).toFixed(1)} s`;
  const plan =
    best === null
      ? 'searching…'
      : `best so far: ${best.served} served, ${best.unserved} unserved, ${best.routesUsed} route${best.routesUsed === 1 ? '' : 's'} (${best.iterations} iterations)`;
  return `Solving ${elapsed} · ${plan}${note ? ` · ${note}` : ''}`;
}

export interface FetchProgress {
  update(donePairs: number, totalPairs: number): void;
  stop(): void;
}

/** "Fetching travel times 1,200/25,000 pairs" on a terminal while a road travel table comes in. */
export function startFetchProgress(options: { enabled: boolean; color: boolean }): FetchProgress {
  if (!options.enabled) return { update: () => undefined, stop: () => undefined };
  let spinner: Ora | null = null;
  let requested = false;
  let stopped = false;
  let text = '';
  return {
    update(done, total) {
      text = fetchText(done, total);
      if (spinner) spinner.text = text;
      if (requested) return;
      requested = true;
      loadSpinner(
        options.color,
        () => stopped,
        (loaded) => {
          spinner = loaded.start();
          spinner.text = text;
        },
      );
    },
    stop() {
      stopped = true;
      spinner?.stop();
    },
  };
}

export function fetchText(done: number, total: number): string {
  return `Fetching travel times ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} pairs`;
}
