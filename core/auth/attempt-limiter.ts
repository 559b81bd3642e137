import type { TooManyAttemptsError } from '../errors.js';

export interface AttemptLimits {
  /** Attempts allowed for one e-mail within the window. */
  maxPerEmail: number;
  /** Attempts allowed from one client address within the window. */
  maxPerAddress: number;
  windowMs: number;
}

interface Window {
  attempts: number;
  endsAt: number;
}

/**
 * Counts attempts (failed logins, password-reset requests) per e-mail and per client address in
 * fixed windows. The counts live in this process's memory: several processes behind one address
 * each keep their own, and a restart forgets them; both only make the limit looser, never lock
 * anyone out for longer.
 */
export class AttemptLimiter {
  private readonly windows = new Map<string, Window>();
  private nextSweep: number;

  constructor(
    private readonly limits: AttemptLimits,
    /** The 429 to throw, given the seconds until the caller may try again. */
    private readonly tooMany: (retryAfterSeconds: number) => Pick<TooManyAttemptsError, 'retryAfterSeconds'> & Error,
    private readonly now: () => number = Date.now,
  ) {
    this.nextSweep = this.now() + this.limits.windowMs;
  }

  /** Throws the 429 when this e-mail or this address used up its attempts. */
  assertAllowed(email: string, address: string): void {
    const wait = Math.max(
      this.secondsBlocked(`email:${email}`, this.limits.maxPerEmail),
      this.secondsBlocked(`address:${address}`, this.limits.maxPerAddress),
    );
    if (wait > 0) throw this.tooMany(wait);
  }

  record(email: string, address: string): void {
    this.sweep();
    this.count(`email:${email}`);
    this.count(`address:${address}`);
  }

  /** Forgets that e-mail's attempts (the address keeps its count). */
  forget(email: string): void {
    this.windows.delete(`email:${email}`);
  }

  private secondsBlocked(key: string, max: number): number {
    const window = this.current(key);
    if (!window || window.attempts < max) return 0;
    return Math.max(1, Math.ceil((window.endsAt - this.now()) / 1000));
  }

  private count(key: string): void {
    const window = this.current(key);
    if (window) window.attempts += 1;
    else this.windows.set(key, { attempts: 1, endsAt: this.now() + this.limits.windowMs });
  }

  private current(key: string): Window | undefined {
    const window = this.windows.get(key);
    if (window && window.endsAt <= this.now()) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  /** Drops finished windows once per window length, so the map stays as small as the traffic. */
  private sweep(): void {
    const now = this.now();
    if (now < this.nextSweep) return;
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
    this.nextSweep = now + this.limits.windowMs;
  }
}
