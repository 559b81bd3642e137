import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** Seals a secret for storage (AES-256-GCM) and opens it again; see sealedSecrets. */
export interface SecretBox {
  /** `v1:<iv>:<tag>:<ciphertext>`, base64url parts; a fresh IV every time. */
  seal(plain: string): string;
  /** The plain text of what `seal` made with the same key; throws when it was altered or sealed with another key. */
  open(sealed: string): string;
}

/**
 * A box whose key is derived (HKDF-SHA256) from a config secret and a purpose, so each user of it
 * (a plugin, by its name) has its own key and none of them is the signing secret itself. Changing
 * the secret makes what was sealed with it unreadable: those values must be entered again.
 */
export function sealedSecrets(secret: string, purpose: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', secret, 'atende-sealed-secrets', purpose, 32));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), data].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join(':');
    },
    open(sealed) {
      const [version, iv, tag, data] = sealed.split(':');
      if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
