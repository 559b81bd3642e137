import WebSocket from 'ws';

export interface TestSocket {
  frames: Record<string, unknown>[];
  /** Resolves with the first frame (already received or coming) that matches, or rejects after `ms`. */
  next(match: (frame: Record<string, unknown>) => boolean, ms?: number): Promise<Record<string, unknown>>;
  send(type: string, data?: unknown): void;
  close(): Promise<void>;
}

/** Opens /ws with an access token, like the browser does. */
export function openSocket(baseUrl: string, token: string): Promise<TestSocket> {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(token)}`);
  const frames: Record<string, unknown>[] = [];
  const waiters: { match: (f: Record<string, unknown>) => boolean; resolve: (f: Record<string, unknown>) => void }[] = [];
  ws.on('message', (raw) => {
    const frame = JSON.parse(raw.toString()) as Record<string, unknown>;
    frames.push(frame);
    for (const waiter of [...waiters]) {
      if (waiter.match(frame)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(frame);
      }
    }
  });
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('open', () =>
      resolve({
        frames,
        // Generous: on a busy 2-core machine a worker may stall a few seconds between frames.
        next(match, ms = 15_000) {
          const seen = frames.find(match);
          if (seen) return Promise.resolve(seen);
          return new Promise((res, rej) => {
            const waiter = { match, resolve: res };
            waiters.push(waiter);
            setTimeout(() => {
              waiters.splice(waiters.indexOf(waiter), 1);
              rej(new Error('no matching frame'));
            }, ms);
          });
        },
        send(type, data) {
          ws.send(JSON.stringify({ type, data }));
        },
        close() {
          return new Promise((res) => {
            if (ws.readyState === WebSocket.CLOSED) return res();
            ws.once('close', () => res());
            ws.close();
          });
        },
      }),
    );
  });
}

/** Waits a little to prove that nothing arrives. */
export function quietFor(ms = 300): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
