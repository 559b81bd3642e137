import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { hash as argon2Hash, verify as argon2Verify, type Algorithm, type Options } from '@node-rs/argon2';
import { Semaphore } from '../semaphore.js';

// OWASP's Argon2id parameters (19 MiB, 2 passes, 1 lane). `Algorithm` is a const enum erased at
// runtime: Argon2id is 2.
const ARGON2: Options = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 };
const ARGON2_PREFIX = '$argon2id$v=19$m=19456,t=2,p=1$';
const SCRYPT_KEY_LENGTH = 32;

// Each hash holds 19 MiB and a libuv thread: a login burst waits here instead of exhausting both.
const hashing = new Semaphore(Math.min(4, availableParallelism()));

/** Argon2id in its PHC string form (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`). */
export function hashPassword(password: string): Promise<string> {
  return hashing.run(() => argon2Hash(password, ARGON2));
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith('$argon2id$')) return hashing.run(() => argon2Verify(stored, password));
  if (stored.startsWith('scrypt$')) return hashing.run(() => verifyScrypt(password, stored));
  return false;
}

/** A hash made before the current parameters: rewrite it at the next successful login. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(ARGON2_PREFIX);
}

/** The first format, `scrypt$N$r$p$salt$hash` (base64url): only checked, never written anymore. */
async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, salt, hash] = stored.split('$');
  if (!salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await new Promise<Buffer>((resolve, reject) => {
    const options = { N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 };
    scryptCb(password, Buffer.from(salt, 'base64url'), SCRYPT_KEY_LENGTH, options, (err, derived) => (err ? reject(err) : resolve(derived)));
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A random password people can type: for the first super admin. */
export function randomPassword(): string {
  return randomBytes(12).toString('base64url');
}
