/**
 * A log that a flood cannot fill: each kind of event writes at most `perWindow` lines per window;
 * the rest are counted, and one line at the window's end says how many were left out. Used for
 * events a client can cause at will (timeouts, refused connections), one line each otherwise.
 */
type Log = (event: Record<string, unknown>) => void;

export interface RateLimitedLogOptions {
  perWindow: number;
  windowMs: number;
}

/** Ten lines a minute per kind: enough to see an attack begin, at most 14,400 lines a day per kind. */
export const LOG_LIMITS: RateLimitedLogOptions = { perWindow: 10, windowMs: 60_000 };

interface Window {
  written: number;
  suppressed: number;
  timer: NodeJS.Timeout;
}

export class RateLimitedLog {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly log: Log,
    private readonly limits: RateLimitedLogOptions = LOG_LIMITS,
  ) {}

  /** Writes `event` unless its kind (`event.event`) has used up this window's lines. */
  write(event: Record<string, unknown> & { event: string }): void {
    const window = this.windowOf(event.event);
    if (window.written < this.limits.perWindow) {
      window.written += 1;
      this.log(event);
    } else {
      window.suppressed += 1;
    }
  }

  /** Ends every window now, writing what each left out (at shutdown). */
  flush(): void {
    for (const kind of [...this.windows.keys()]) this.close(kind);
  }

  private windowOf(kind: string): Window {
    const open = this.windows.get(kind);
    if (open) return open;
    const timer = setTimeout(() => this.close(kind), this.limits.windowMs);
    // A window's summary never keeps the process alive.
    timer.unref();
    const window = { written: 0, suppressed: 0, timer };
    this.windows.set(kind, window);
    return window;
  }

  private close(kind: string): void {
    const window = this.windows.get(kind);
    if (!window) return;
    clearTimeout(window.timer);
    this.windows.delete(kind);
    if (window.suppressed > 0) {
      this.log({ event: 'log_suppressed', kind, suppressed: window.suppressed, window_s: this.limits.windowMs / 1000 });
    }
  }
}
