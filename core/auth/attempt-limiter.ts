import type { AttemptStore } from '../cluster/attempt-store.js';
import type { TooManyAttemptsError } from '../errors.js';

export interface AttemptLimits {
  /** Attempts allowed for one e-mail within the window. */
  maxPerEmail: number;
  /** Attempts allowed from one client address within the window. */
  maxPerAddress: number;
  windowMs: number;
}

/**
 * Counts attempts (failed logins, password-reset requests) per e-mail and per client address in
 * fixed windows, in a store every node of the installation shares when it runs on several (Redis),
 * else in this process's memory, where a restart forgets them: that only makes the limit looser,
 * never locks anyone out for longer.
 */
export class AttemptLimiter {
  constructor(
    /** Keeps this limiter's counts apart from other limiters' in a shared store. */
    private readonly name: string,
    private readonly store: AttemptStore,
    private readonly limits: AttemptLimits,
    /** The 429 to throw, given the seconds until the caller may try again. */
    private readonly tooMany: (retryAfterSeconds: number) => Pick<TooManyAttemptsError, 'retryAfterSeconds'> & Error,
  ) {}

  /** Throws the 429 when this e-mail or this address used up its attempts. */
  async assertAllowed(email: string, address: string): Promise<void> {
    const [byEmail, byAddress] = await Promise.all([
      this.secondsBlocked(this.key('email', email), this.limits.maxPerEmail),
      this.secondsBlocked(this.key('address', address), this.limits.maxPerAddress),
    ]);
    const wait = Math.max(byEmail, byAddress);
    if (wait > 0) throw this.tooMany(wait);
  }

  async record(email: string, address: string): Promise<void> {
    await Promise.all([this.store.count(this.key('email', email), this.limits.windowMs), this.store.count(this.key('address', address), this.limits.windowMs)]);
  }

  /** Forgets that e-mail's attempts (the address keeps its count). */
  async forget(email: string): Promise<void> {
    await this.store.forget(this.key('email', email));
  }

  private key(kind: 'email' | 'address', value: string): string {
    return `${this.name}:${kind}:${value}`;
  }

  private async secondsBlocked(key: string, max: number): Promise<number> {
    const window = await this.store.read(key);
    if (window.attempts < max) return 0;
    return Math.max(1, Math.ceil(window.remainingMs / 1000));
  }
}
