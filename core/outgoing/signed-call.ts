import { createHmac } from 'node:crypto';

/**
 * The one way Atende signs a call it makes to a tenant's address (a webhook delivery, a flow of a
 * queue integration): `X-Atende-Timestamp` is the Unix seconds of the attempt, and
 * `X-Atende-Signature` is `sha256=` + hex HMAC-SHA256 of `<timestamp>.<raw body>` with the
 * secret. The receiver checks it over the exact bytes and refuses an old timestamp (a replay).
 */
export const SIGNATURE_HEADERS = {
  timestamp: 'x-atende-timestamp',
  signature: 'x-atende-signature',
} as const;

export function signatureOf(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The two headers of one attempt, its timestamp now (each attempt of a retried call signs again). */
export function signedHeaders(secret: string, body: string, now = Date.now()): Record<string, string> {
  const timestamp = String(Math.floor(now / 1000));
  return { [SIGNATURE_HEADERS.timestamp]: timestamp, [SIGNATURE_HEADERS.signature]: signatureOf(secret, timestamp, body) };
}
