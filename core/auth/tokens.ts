import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { UnauthorizedError } from '../errors.js';

export interface AccessClaims {
  id: number;
  companyId: number;
  profile: string;
  tokenVersion: number;
}

export interface RefreshClaims {
  id: number;
  tokenVersion: number;
  /** Id of this refresh token: the user row keeps the current one, so a replayed old token fails. */
  jti: string;
}

/** Signs and checks the short access JWT and the refresh JWT (each with its own secret). */
export class TokenService {
  private readonly accessKey: Uint8Array;
  private readonly refreshKey: Uint8Array;

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

  signRefresh(claims: Omit<RefreshClaims, 'jti'>): Promise<{ token: string; jti: string }> {
    const jti = randomBytes(16).toString('base64url');
    return new SignJWT({ id: claims.id, tokenVersion: claims.tokenVersion })
      .setProtectedHeader({ alg: 'HS256' })
      .setJti(jti)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + this.ttl.refresh)
      .sign(this.refreshKey)
      .then((token) => ({ token, jti }));
  }

  async verifyAccess(token: string): Promise<AccessClaims> {
    const payload = await this.verify(token, this.accessKey);
    return payload as unknown as AccessClaims;
  }

  async verifyRefresh(token: string): Promise<RefreshClaims> {
    const payload = await this.verify(token, this.refreshKey);
    return payload as unknown as RefreshClaims;
  }

  private async verify(token: string, key: Uint8Array): Promise<Record<string, unknown>> {
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
      return payload;
    } catch (err) {
      if (err instanceof joseErrors.JOSEError) throw new UnauthorizedError();
      throw err;
    }
  }
}
