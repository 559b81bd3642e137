import { AppError } from '../../errors.js';
import { ErrorCode } from '../../contract/error-codes.js';

export interface LoginLimits {
  /** Failed attempts allowed for one e-mail within the window. */
  maxPerEmail: number;
  /** Failed attempts allowed from one client address within the window. */
  maxPerAddress: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { maxPerEmail: 5, maxPerAddress: 20, windowMs: 15 * 60_000 };

export class TooManyLoginAttemptsError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      ErrorCode.ERR_TOO_MANY_LOGIN_ATTEMPTS,
      429,
      `Too many failed login attempts, try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s)`,
    );
  }
}

interface Window {
  failures: number;
  endsAt: number;
}

/**
 * Counts failed logins per e-mail and per client address in fixed windows. The counts live in
 * this process's memory: several processes behind one address each keep their own, and a restart
 * forgets them; both only make the limit looser, never lock anyone out for longer.
 */
export class LoginRateLimiter {
  private readonly limits: LoginLimits;
  private readonly windows = new Map<string, Window>();
  private nextSweep: number;

  constructor(
    limits: Partial<LoginLimits> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.limits = { ...DEFAULT_LOGIN_LIMITS, ...limits };
    this.nextSweep = this.now() + this.limits.windowMs;
  }

  /** Throws 429 when this e-mail or this address used up its failed attempts. */
  assertAllowed(email: string, address: string): void {
    const wait = Math.max(
      this.secondsBlocked(`email:${email}`, this.limits.maxPerEmail),
      this.secondsBlocked(`address:${address}`, this.limits.maxPerAddress),
    );
    if (wait > 0) throw new TooManyLoginAttemptsError(wait);
  }

  recordFailure(email: string, address: string): void {
    this.sweep();
    this.count(`email:${email}`);
    this.count(`address:${address}`);
  }

  /** A successful login forgets that e-mail's failures (the address keeps its count). */
  recordSuccess(email: string): void {
    this.windows.delete(`email:${email}`);
  }

  private secondsBlocked(key: string, max: number): number {
    const window = this.current(key);
    if (!window || window.failures < max) return 0;
    return Math.max(1, Math.ceil((window.endsAt - this.now()) / 1000));
  }

  private count(key: string): void {
    const window = this.current(key);
    if (window) window.failures += 1;
    else this.windows.set(key, { failures: 1, endsAt: this.now() + this.limits.windowMs });
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
