/** The log a flood cannot fill (src/server/rate-limited-log.ts): per kind, a bounded number of lines per window. */
import { describe, expect, it } from 'vitest';
import { RateLimitedLog } from '../../src/server/rate-limited-log.js';

describe('RateLimitedLog', () => {
  it('writes at most perWindow lines of a kind per window, then one line counting the rest; other kinds are apart', async () => {
    const lines: Record<string, unknown>[] = [];
    const log = new RateLimitedLog((event) => lines.push(event), { perWindow: 3, windowMs: 100 });
    for (let i = 0; i < 50; i++) log.write({ event: 'request_timeout', n: i });
    log.write({ event: 'connection_refused' });
    expect(lines.map((line) => line.n ?? line.event)).toEqual([0, 1, 2, 'connection_refused']);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(lines.slice(4)).toEqual([{ event: 'log_suppressed', kind: 'request_timeout', suppressed: 47, window_s: 0.1 }]);
    // A new window writes again.
    log.write({ event: 'request_timeout', n: 50 });
    expect(lines.at(-1)).toEqual({ event: 'request_timeout', n: 50 });
    log.flush();
  });

  it('flush() ends the windows now, writing what each left out', () => {
    const lines: Record<string, unknown>[] = [];
    const log = new RateLimitedLog((event) => lines.push(event), { perWindow: 1, windowMs: 60_000 });
    log.write({ event: 'client_error' });
    log.write({ event: 'client_error' });
    log.flush();
    expect(lines).toEqual([{ event: 'client_error' }, { event: 'log_suppressed', kind: 'client_error', suppressed: 1, window_s: 60 }]);
  });
});
