import { describe, expect, it } from 'vitest';
import { Semaphore } from '../../core/semaphore.js';

describe('Semaphore', () => {
  it('runs at most `limit` tasks at once, the rest in arrival order, and frees a slot when a task fails', async () => {
    const semaphore = new Semaphore(2);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const task = (n: number) => async () => {
      started.push(n);
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      if (n === 1) throw new Error('boom');
      return n;
    };
    const results = await Promise.allSettled([1, 2, 3, 4, 5, 6].map((n) => semaphore.run(task(n))));
    expect(peak).toBe(2);
    expect(started).toEqual([1, 2, 3, 4, 5, 6]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'failed'))).toEqual(['failed', 2, 3, 4, 5, 6]);
  });
});
