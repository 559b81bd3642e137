import type { Infrastructure } from '../../infrastructure.js';
import { newRefreshTokenId, type TokenService } from '../../auth/tokens.js';
import type { AuthUser } from '../../auth/auth-user.js';
import { hashPassword, needsRehash, randomPassword, verifyPassword } from '../../auth/password.js';
import { AppError, ForbiddenError, UnauthorizedError } from '../../errors.js';
import { Events } from '../../events/event-bus.js';
import type { Company } from '../companies/company.model.js';
import { SETTINGS } from '../settings/settings.schema.js';
import type { SessionUser } from '../../contract/views.js';
import type { UsersService } from '../users/users.service.js';
import type { LoginInput } from './auth.schema.js';
import { LoginRateLimiter } from './login-rate-limiter.js';
import { ErrorCode } from '../../contract/error-codes.js';
import { requiredScope, scopeAllows } from '../../auth/api-scopes.js';
import { BearerTokens } from '../../auth/bearer-tokens.js';

const DEFAULT_TIMEZONE = SETTINGS.timezone.default;
/** How long a just-rotated refresh token is still accepted (tabs refreshing at the same time). */
const REFRESH_GRACE_MS = 10_000;

export interface Session {
  /** Access JWT, sent as `Authorization: Bearer`. */
  token: string;
  /** Refresh JWT, sent only as the httpOnly cookie. */
  refreshToken: string;
  user: SessionUser;
}

/** Today's date (YYYY-MM-DD) on the company's clock. */
function todayIn(timeZone: string): string {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  } catch {
    format = new Intl.DateTimeFormat('en-US', { timeZone: DEFAULT_TIMEZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
  }
  const part = (type: string) => format.formatToParts(new Date()).find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** YYYY-MM-DD → dd/MM/yyyy, as the spec shows dates. */
function brazilianDate(date: string): string {
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year}`;
}

/**
 * Sessions: login, refresh-token rotation, logout, and the check behind every request and
 * socket. One session per user: each login bumps the user's token version, which ends every
 * older access and refresh token; the current refresh token's id is kept on the user row, so a
 * replayed (already rotated) refresh token is detected and ends the session.
 */
export class AuthService {
  /** A hash nobody can match, checked for unknown e-mails (computed once, in the background). */
  private readonly dummyHash = hashPassword(randomPassword());
  /** Bearer tokens of other kinds than the session's (a plugin's company API tokens). */
  readonly bearers = new BearerTokens();

  constructor(
    private readonly infra: Infrastructure,
    private readonly tokens: TokenService,
    private readonly users: UsersService,
    private readonly limiter = new LoginRateLimiter(infra.cluster.attempts),
  ) {}

  /** Bearer token → the caller as the users table says now; 401 ERR_SESSION_EXPIRED otherwise. */
  async authenticate(token: string): Promise<AuthUser> {
    const claims = await this.tokens.verifyAccess(token);
    const row = await this.users.findAuthRow(claims.id);
    if (!row || row.tokenVersion !== claims.tokenVersion) throw new UnauthorizedError();
    const { id, companyId, name, email, profile, financial } = row;
    return { id, companyId, name, email, profile, super: row.super, financial };
  }

  /**
   * The caller of an HTTP request: a session's JWT, or a registered kind of bearer token (by its
   * prefix). A token acts through an admin of its company with the admin profile, never as a super
   * user, and only on the routes its scopes name (403 elsewhere); an unknown or revoked one, or one
   * whose user is gone or no longer an admin there, answers 401 ERR_INVALID_API_TOKEN.
   */
  async authenticateRequest(token: string, method: string, path: string): Promise<AuthUser> {
    const resolve = this.bearers.resolverOf(token);
    if (!resolve) return this.authenticate(token);
    const identity = await resolve(token);
    const user = identity ? await this.users.findWithCompany({ id: identity.userId }) : undefined;
    if (!identity || !user || user.companyId !== identity.companyId || (user.profile !== 'admin' && !user.super)) throw new UnauthorizedError(ErrorCode.ERR_INVALID_API_TOKEN, 'This API token is not valid');
    const needed = requiredScope(method, path);
    if (!needed) throw new ForbiddenError(ErrorCode.ERR_NO_PERMISSION, 'API tokens may not use this route');
    if (!scopeAllows(identity.scopes, needed)) throw new ForbiddenError(ErrorCode.ERR_NO_PERMISSION, `This API token lacks the ${needed} scope`);
    this.assertMayEnter({ super: false, financial: false }, user.company);
    const { id, companyId, name, email } = user;
    return { id, companyId, name, email, profile: 'admin', super: false, financial: false, apiToken: { id: identity.tokenId, name: identity.tokenName } };
  }

  /** `address` is the client's IP, for the per-address failure limit. */
  async login(input: LoginInput, address: string): Promise<Session> {
    await this.limiter.assertAllowed(input.email, address);
    const user = await this.users.findWithCompany({ email: input.email });
    // Hash even for an unknown e-mail, so the answer time does not tell which accounts exist.
    const valid = user ? await verifyPassword(input.password, user.passwordHash) : await this.burnHash(input.password);
    if (!user || !valid) {
      await this.limiter.record(input.email, address);
      throw new UnauthorizedError(ErrorCode.ERR_INVALID_CREDENTIALS, 'Invalid e-mail or password');
    }
    await this.limiter.forget(input.email);
    this.assertMayEnter(user, user.company);
    if (needsRehash(user.passwordHash)) {
      await this.users.rehashPassword(user.id, user.passwordHash, await hashPassword(input.password));
    }

    const session = await this.renewSession(user.id);
    // The sessions this login replaced hear it and lose their sockets; its own socket can only
    // open once this answer is sent, so the notice never reaches it.
    this.infra.realtime.publish(user.companyId, `company-${user.companyId}-auth`, { action: 'login', user: { id: user.id } }, `user:${user.id}`);
    this.infra.realtime.disconnectUser(user.id, 'signed in elsewhere');
    await this.users.publishUpdate(user.id);
    await this.infra.bus.emit(Events.userLoggedIn, user.companyId, { userId: user.id });
    return session;
  }

  /** Exchanges the refresh token for a new pair; a replayed old one ends the session. */
  async refresh(refreshToken: string): Promise<Session> {
    const claims = await this.tokens.verifyRefresh(refreshToken);
    const user = await this.users.findWithCompany({ id: claims.id });
    if (!user || user.tokenVersion !== claims.tokenVersion) throw new UnauthorizedError();
    if (user.refreshTokenId !== claims.jti && !this.justRotated(user, claims.jti)) await this.rejectReplay(user.id);
    this.assertMayEnter(user, user.company);

    const jti = newRefreshTokenId();
    const stored = await this.users.rotateRefreshToken(
      user.id,
      { tokenVersion: user.tokenVersion, refreshTokenId: user.refreshTokenId ?? claims.jti },
      jti,
    );
    // Another refresh with this same token won the race: this one is the replay.
    if (!stored) await this.rejectReplay(user.id);
    const next = await this.tokens.signRefresh({ id: user.id, tokenVersion: user.tokenVersion, jti });
    return this.session(user.id, user.tokenVersion, next);
  }

  /** Ends the caller's session everywhere. */
  async logout(user: AuthUser): Promise<void> {
    await this.users.endSessions(user.id, 'signed out');
  }

  async me(user: AuthUser): Promise<SessionUser> {
    const session = await this.users.findSessionUser(user.id);
    if (!session) throw new UnauthorizedError();
    return session;
  }

  /**
   * A fresh session (a login, or a user whose sessions just ended by their own password change):
   * takes the user's next token version, so every older token, a simultaneous login's included,
   * stops working.
   */
  async renewSession(userId: number): Promise<Session> {
    const jti = newRefreshTokenId();
    const tokenVersion = await this.users.startSession(userId, jti);
    if (tokenVersion === undefined) throw new UnauthorizedError();
    return this.session(userId, tokenVersion, await this.tokens.signRefresh({ id: userId, tokenVersion, jti }));
  }

  private async session(userId: number, tokenVersion: number, refreshToken: string): Promise<Session> {
    const user = await this.users.findSessionUser(userId);
    if (!user) throw new UnauthorizedError();
    const token = await this.tokens.signAccess({ id: user.id, companyId: user.companyId, profile: user.profile, tokenVersion });
    return { token, refreshToken, user };
  }

  /**
   * Two tabs share one cookie and may refresh at the same moment: the token rotated a few seconds
   * ago is still honoured (and rotated again), so neither tab loses the session.
   */
  private justRotated(user: { previousRefreshTokenId: string | null; refreshRotatedAt: string | null }, jti: string): boolean {
    if (user.previousRefreshTokenId !== jti || !user.refreshRotatedAt) return false;
    return Date.now() - Date.parse(user.refreshRotatedAt) < REFRESH_GRACE_MS;
  }

  private async rejectReplay(userId: number): Promise<never> {
    this.infra.log.warn({ userId }, 'a rotated refresh token was presented again: session revoked');
    await this.users.endSessions(userId, 'session revoked');
    throw new UnauthorizedError();
  }

  /** Inactive companies keep only super users out; an expired subscription lets financial users in. */
  private assertMayEnter(user: { super: boolean; financial: boolean }, company: Company): void {
    if (user.super) return;
    if (!company.status) throw new ForbiddenError(ErrorCode.ERR_COMPANY_INACTIVE, 'This company is inactive; contact support');
    if (user.financial || !company.dueDate) return;
    const timeZone = company.settings?.find((s) => s.key === 'timezone')?.value || DEFAULT_TIMEZONE;
    if (company.dueDate < todayIn(timeZone)) {
      throw new AppError(
        ErrorCode.ERR_SUBSCRIPTION_EXPIRED,
        402,
        `Your subscription expired on ${brazilianDate(company.dueDate)}. Please contact support for more information.`,
        { dueDate: company.dueDate },
      );
    }
  }

  /** As slow as checking a real password. */
  private async burnHash(password: string): Promise<false> {
    await verifyPassword(password, await this.dummyHash);
    return false;
  }
}
