import { fetchLatestWaWebVersion, type WAVersion } from '@whiskeysockets/baileys';

const FRESH_MS = 6 * 3_600_000;
const RETRY_MS = 10 * 60_000;

let known: { version: WAVersion; until: number } | undefined;

/**
 * The WhatsApp Web version to announce. WhatsApp refuses clients that fall too far behind, and the
 * one built into Baileys ages with the release, so the current one is read from web.whatsapp.com,
 * shared by every connection for a few hours. When that fails (no network) Baileys' own version is
 * used, and the lookup is tried again after a few minutes rather than on every reconnect.
 */
export async function currentWaVersion(): Promise<WAVersion> {
  if (known && known.until > Date.now()) return known.version;
  const { version, isLatest } = await fetchLatestWaWebVersion({ signal: AbortSignal.timeout(5_000) });
  known = { version, until: Date.now() + (isLatest ? FRESH_MS : RETRY_MS) };
  return version;
}
