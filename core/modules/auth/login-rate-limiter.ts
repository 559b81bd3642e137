import { AttemptLimiter, type AttemptLimits } from '../../auth/attempt-limiter.js';
import type { AttemptStore } from '../../cluster/attempt-store.js';
import { TooManyAttemptsError } from '../../errors.js';
import { ErrorCode } from '../../contract/error-codes.js';

/** Failed logins allowed: 5 per e-mail and 20 per address in 15 minutes. */
export const DEFAULT_LOGIN_LIMITS: AttemptLimits = { maxPerEmail: 5, maxPerAddress: 20, windowMs: 15 * 60_000 };

/** Failed logins per e-mail and per address; a successful login forgets that e-mail's failures. */
export class LoginRateLimiter extends AttemptLimiter {
  constructor(store: AttemptStore, limits: Partial<AttemptLimits> = {}) {
    super('login', store, { ...DEFAULT_LOGIN_LIMITS, ...limits }, (seconds) =>
      new TooManyAttemptsError(ErrorCode.ERR_TOO_MANY_LOGIN_ATTEMPTS, `Too many failed login attempts, try again in ${Math.ceil(seconds / 60)} minute(s)`, seconds),
    );
  }
}
