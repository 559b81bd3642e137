import { ErrorCode, TooManyAttemptsError } from 'atende/plugin';

/**
 * Requests per token in fixed one-minute windows, in this process's memory: a restart or a second
 * process only makes the limit looser.
 */
export class RateLimit {
  private readonly windows = new Map<number, { count: number; endsAt: number }>();

  constructor(private readonly perMinute: number) {}

  /** Counts one request of the token; 429 with Retry-After once its window is used up. */
  take(tokenId: number): void {
    const now = Date.now();
    if (this.windows.size > 10_000) for (const [id, w] of this.windows) if (w.endsAt <= now) this.windows.delete(id);
    let window = this.windows.get(tokenId);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + 60_000 };
      this.windows.set(tokenId, window);
    }
    if (window.count >= this.perMinute) {
      throw new TooManyAttemptsError(ErrorCode.ERR_API_RATE_LIMIT, `At most ${this.perMinute} requests a minute per token`, Math.max(1, Math.ceil((window.endsAt - now) / 1000)));
    }
    window.count += 1;
  }
}
