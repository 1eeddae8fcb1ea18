/**
 * A limit on guessing credentials (API keys on `/login` and in `Authorization: Bearer`, driver
 * links, and any other secret a client presents): past `maxFailures` failed checks within
 * `windowMs` from one client address, every check from that address is refused with 429 and
 * `Retry-After` until its oldest counted failure leaves the window, even with a right key (answering
 * a right key would let the guessing go on at full speed, the 429s telling only which guesses were
 * wrong). Other addresses are never held back, so the real user on another address is not locked
 * out; the limit slows a guesser down to `maxFailures` guesses a window instead of hundreds a second.
 *
 * The count is per address, and for IPv6 per /64 network (one host usually holds a whole /64). It
 * is kept in memory for at most `maxAddresses` addresses, the one that failed least recently
 * forgotten first, and each address keeps at most `maxFailures` times: the memory is bounded.
 */
import { HttpError } from './replies.js';

export interface GuessLimits {
  maxFailures: number;
  windowMs: number;
  maxAddresses: number;
}

export const GUESS_LIMITS: GuessLimits = { maxFailures: 20, windowMs: 60_000, maxAddresses: 10_000 };

export class GuessLimiter {
  /** Per client, the times of its last failures, oldest first; the client that failed last is last. */
  private readonly failures = new Map<string, number[]>();
  private readonly limits: GuessLimits;

  constructor(
    limits: Partial<GuessLimits> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.limits = { ...GUESS_LIMITS, ...limits };
  }

  /**
   * Runs one credential check of the client at `address`: refused (429) while the address is
   * limited; a check that throws an error `isWrongGuess` recognises counts as a failure.
   */
  async attempt<T>(address: string, check: () => T | Promise<T>, isWrongGuess: (error: unknown) => boolean): Promise<T> {
    this.refuseIfLimited(address);
    try {
      return await check();
    } catch (error) {
      if (isWrongGuess(error)) this.fail(address);
      throw error;
    }
  }

  /** The synchronous form of attempt(). */
  attemptNow<T>(address: string, check: () => T, isWrongGuess: (error: unknown) => boolean): T {
    this.refuseIfLimited(address);
    try {
      return check();
    } catch (error) {
      if (isWrongGuess(error)) this.fail(address);
      throw error;
    }
  }

  /** Throws the 429 while the client at `address` has used up its failures. */
  refuseIfLimited(address: string): void {
    const times = this.recent(clientOf(address));
    if (times.length < this.limits.maxFailures) return;
    const waitMs = times[0]! + this.limits.windowMs - this.now();
    const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
    throw new HttpError(
      429,
      'too_many_failed_attempts',
      `${this.limits.maxFailures} wrong keys or links came from this address within ${this.limits.windowMs / 1000} s; retry in ${retryAfter} s`,
      [],
      { 'retry-after': String(retryAfter) },
    );
  }

  /** Counts one failed check of the client at `address`. */
  fail(address: string): void {
    const client = clientOf(address);
    const times = this.recent(client);
    times.push(this.now());
    // Only the last maxFailures times decide anything.
    if (times.length > this.limits.maxFailures) times.splice(0, times.length - this.limits.maxFailures);
    this.failures.delete(client);
    this.failures.set(client, times);
    for (const oldest of this.failures.keys()) {
      if (this.failures.size <= this.limits.maxAddresses) break;
      this.failures.delete(oldest);
    }
  }

  /** How many clients are remembered (tests: the memory stays bounded). */
  get size(): number {
    return this.failures.size;
  }

  /** The client's failures still inside the window (older ones dropped, and a client without any forgotten). */
  private recent(client: string): number[] {
    const times = this.failures.get(client);
    if (!times) return [];
    const since = this.now() - this.limits.windowMs;
    while (times.length > 0 && times[0]! <= since) times.shift();
    if (times.length === 0) this.failures.delete(client);
    return times;
  }
}

/** The client an address stands for: an IPv4 address (also when IPv4-mapped), or an IPv6 /64 network. */
export function clientOf(address: string): string {
  const bare = address.replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(bare);
  if (mapped) return mapped[1]!;
  if (!bare.includes(':')) return bare;
  return `${ipv6Groups(bare).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, `::` expanded, without leading zeros. */
function ipv6Groups(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const first = head === '' ? [] : head.split(':');
  const last = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(Math.max(0, 8 - first.length - last.length)).fill('0');
  return [...first, ...zeros, ...last].map((group) => (/^[0-9a-f]{1,4}$/.test(group) ? parseInt(group, 16).toString(16) : group));
}
