import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { z } from 'zod';
import { UnauthorizedError } from '../errors.js';

const tokenVersion = z.number().int().min(0);
const userId = z.number().int().positive();

// A token signed with the secret is still refused unless it expires and carries the whole identity.
const accessClaims = z.object({
  id: userId,
  companyId: userId,
  profile: z.string(),
  tokenVersion,
  exp: z.number(),
});

const refreshClaims = z.object({
  id: userId,
  tokenVersion,
  /** Id of this refresh token: the user row keeps the current one, so a replayed old token fails. */
  jti: z.string().min(1),
  exp: z.number(),
});

export type AccessClaims = Omit<z.infer<typeof accessClaims>, 'exp'>;
/** An access token's claims with its expiry, as verified. */
type VerifiedAccess = z.infer<typeof accessClaims>;
export type RefreshClaims = Omit<z.infer<typeof refreshClaims>, 'exp'>;

/** Access tokens verified lately, kept until they expire: at most this many (the oldest go first). */
const VERIFIED_KEPT = 10_000;

/**
 * Access tokens already verified, with their claims: a session's token comes with every request,
 * and checking its signature each time (WebCrypto's HMAC) is a fair share of a list's or a search's
 * work on the event loop. A token is kept only until its `exp`; whether its session still stands
 * (tokenVersion) is read with the user on every request, as before.
 */
class VerifiedTokens {
  private readonly verified = new Map<string, VerifiedAccess>();

  get(token: string): VerifiedAccess | undefined {
    const claims = this.verified.get(token);
    if (claims && claims.exp <= Math.floor(Date.now() / 1000)) {
      this.verified.delete(token);
      return undefined;
    }
    return claims;
  }

  add(token: string, claims: VerifiedAccess): void {
    if (this.verified.size >= VERIFIED_KEPT) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, claims);
  }
}

/** A new refresh token id, stored on the user row before the token carrying it is signed. */
export function newRefreshTokenId(): string {
  return randomBytes(16).toString('base64url');
}

/** Signs and checks the short access JWT and the refresh JWT (each with its own secret). */
export class TokenService {
  private readonly accessKey: Uint8Array;
  private readonly refreshKey: Uint8Array;
  private readonly verified = new VerifiedTokens();

  constructor(
    secrets: { jwtSecret: string; jwtRefreshSecret: string },
    readonly ttl: { access: number; refresh: number },
  ) {
    this.accessKey = new TextEncoder().encode(secrets.jwtSecret);
    this.refreshKey = new TextEncoder().encode(secrets.jwtRefreshSecret);
  }

  signAccess(claims: AccessClaims): Promise<string> {
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + this.ttl.access)
      .sign(this.accessKey);
  }

  signRefresh(claims: RefreshClaims): Promise<string> {
    return new SignJWT({ id: claims.id, tokenVersion: claims.tokenVersion })
      .setProtectedHeader({ alg: 'HS256' })
      .setJti(claims.jti)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + this.ttl.refresh)
      .sign(this.refreshKey);
  }

  async verifyAccess(token: string): Promise<AccessClaims> {
    const known = this.verified.get(token);
    if (known) return known;
    const claims = await this.verify(token, this.accessKey, accessClaims);
    this.verified.add(token, claims);
    return claims;
  }

  async verifyRefresh(token: string): Promise<RefreshClaims> {
    return this.verify(token, this.refreshKey, refreshClaims);
  }

  private async verify<T>(token: string, key: Uint8Array, claims: z.ZodType<T>): Promise<T> {
    let payload: unknown;
    try {
      ({ payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['exp'] }));
    } catch (err) {
      if (err instanceof joseErrors.JOSEError) throw new UnauthorizedError();
      throw err;
    }
    const parsed = claims.safeParse(payload);
    if (!parsed.success) throw new UnauthorizedError();
    return parsed.data;
  }
}
