import { DisconnectReason } from '@whiskeysockets/baileys';

export interface Backoff {
  /** Wait before the first reconnect. */
  baseMs: number;
  /** Longest wait between reconnects. */
  maxMs: number;
}

/**
 * Wait before reconnect attempt `failures` (1 for the first): base · 2^(failures − 1), capped,
 * minus up to 20 % of jitter so connections dropped together do not all return at the same
 * instant. Even with jitter each wait is longer than the one before, until the cap.
 */
export function reconnectDelay(failures: number, backoff: Backoff, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(ceiling * (1 - 0.2 * random()));
}

/** What a closed socket asks for: nothing more after a logout, an immediate restart, or a retry. */
export type CloseAction = 'logged-out' | 'restart' | 'retry';

/** The close code Baileys attaches to `lastDisconnect.error` (a Boom), if any. */
export function closeCode(error: unknown): number | undefined {
  const code = (error as { output?: { statusCode?: unknown } } | undefined)?.output?.statusCode;
  return typeof code === 'number' ? code : undefined;
}

export function closeAction(error: unknown): CloseAction {
  const code = closeCode(error);
  if (code === DisconnectReason.loggedOut) return 'logged-out';
  // Sent right after a QR is scanned: the new credentials only work on a fresh socket.
  if (code === DisconnectReason.restartRequired) return 'restart';
  return 'retry';
}
