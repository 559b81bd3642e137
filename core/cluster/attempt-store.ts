import type { RedisLink } from './redis-link.js';

/** Attempts counted under one key in its current window, and the milliseconds the window has left. */
export interface AttemptWindow {
  attempts: number;
  remainingMs: number;
}

/**
 * Counters in fixed windows (a window starts with its key's first attempt), behind the attempt
 * limiters: in this process's memory for one node, in Redis when several nodes must share them.
 */
export interface AttemptStore {
  count(key: string, windowMs: number): Promise<void>;
  /** The key's current window; attempts 0 when there is none. */
  read(key: string): Promise<AttemptWindow>;
  forget(key: string): Promise<void>;
}

export class MemoryAttemptStore implements AttemptStore {
  private readonly windows = new Map<string, { attempts: number; endsAt: number }>();
  private nextSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async count(key: string, windowMs: number): Promise<void> {
    this.sweep(windowMs);
    const window = this.current(key);
    if (window) window.attempts += 1;
    else this.windows.set(key, { attempts: 1, endsAt: this.now() + windowMs });
  }

  async read(key: string): Promise<AttemptWindow> {
    const window = this.current(key);
    return window ? { attempts: window.attempts, remainingMs: window.endsAt - this.now() } : { attempts: 0, remainingMs: 0 };
  }

  async forget(key: string): Promise<void> {
    this.windows.delete(key);
  }

  private current(key: string) {
    const window = this.windows.get(key);
    if (window && window.endsAt <= this.now()) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  /** Drops finished windows once per window length, so the map stays as small as the traffic. */
  private sweep(windowMs: number): void {
    const now = this.now();
    if (now < this.nextSweep) return;
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
    this.nextSweep = now + windowMs;
  }
}

/** The same windows as Redis keys that expire with them: every node counts into one. */
export class RedisAttemptStore implements AttemptStore {
  constructor(private readonly link: RedisLink) {}

  async count(key: string, windowMs: number): Promise<void> {
    const name = this.name(key);
    // NX: only the window's first attempt sets its end.
    await this.link.client.multi().incr(name).pExpire(name, windowMs, 'NX').exec();
  }

  async read(key: string): Promise<AttemptWindow> {
    const name = this.name(key);
    const [attempts, ttl] = (await this.link.client.multi().get(name).pTTL(name).exec()) as unknown as [string | null, number];
    return attempts === null || ttl <= 0 ? { attempts: 0, remainingMs: 0 } : { attempts: Number(attempts), remainingMs: ttl };
  }

  async forget(key: string): Promise<void> {
    await this.link.client.del(this.name(key));
  }

  private name(key: string): string {
    return this.link.key(`attempts:${key}`);
  }
}
