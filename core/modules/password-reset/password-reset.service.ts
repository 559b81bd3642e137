import { createHash, randomBytes } from 'node:crypto';
import type { Infrastructure } from '../../infrastructure.js';
import { AttemptLimiter, type AttemptLimits } from '../../auth/attempt-limiter.js';
import { hashPassword } from '../../auth/password.js';
import { AppError, TooManyAttemptsError } from '../../errors.js';
import { ErrorCode } from '../../contract/error-codes.js';
import { mailNotConfigured, type MailService } from '../../mail/mail.service.js';
import type { UsersService } from '../users/users.service.js';
import type { ChangePasswordInput, RequestResetInput } from './password-reset.schema.js';
import { resetMail } from './password-reset.mail.js';

/** A link works for one hour. */
export const RESET_LINK_TTL_MS = 60 * 60_000;

/**
 * Requests and failed changes allowed: 3 per e-mail (so nobody floods an inbox) and 10 per
 * client address in 15 minutes.
 */
export const DEFAULT_RESET_LIMITS: AttemptLimits = { maxPerEmail: 3, maxPerAddress: 10, windowMs: 15 * 60_000 };

const TABLE = 'passwordResets';

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function invalidLink(): AppError {
  return new AppError(ErrorCode.ERR_INVALID_RESET_LINK, 400, 'This recovery link is invalid, expired or already used; ask for a new one');
}

/**
 * Password recovery by e-mail: a link carrying a random token (only its SHA-256 is stored), valid
 * for an hour and once; using it sets the new password and ends every session of the user.
 */
export class PasswordResetService {
  private readonly limiter: AttemptLimiter;

  constructor(
    private readonly infra: Infrastructure,
    private readonly users: UsersService,
    private readonly mail: MailService,
    limits: AttemptLimits = DEFAULT_RESET_LIMITS,
  ) {
    this.limiter = new AttemptLimiter(
      'password-reset',
      infra.cluster.attempts,
      limits,
      (seconds) =>
        new TooManyAttemptsError(
          ErrorCode.ERR_TOO_MANY_RESET_REQUESTS,
          `Too many password recovery requests, try again in ${Math.ceil(seconds / 60)} minute(s)`,
          seconds,
        ),
    );
  }

  /**
   * E-mails a recovery link to the account with this e-mail. An unknown e-mail answers the same
   * and sends nothing, and the mail leaves after the answer: neither tells who has an account.
   * `address` is the client's, for the per-address limit.
   */
  async request(input: RequestResetInput, address: string): Promise<void> {
    if (!this.mail.configured) throw mailNotConfigured();
    await this.limiter.assertAllowed(input.email, address);
    await this.limiter.record(input.email, address);
    const user = await this.users.findWithCompany({ email: input.email });
    if (!user) return;

    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    await this.infra.db.transaction(async (trx) => {
      await trx(TABLE).where('userId', user.id).where('expiresAt', '<=', now.toISOString()).delete();
      await trx(TABLE).insert({
        userId: user.id,
        tokenHash: tokenHash(token),
        expiresAt: new Date(now.getTime() + RESET_LINK_TTL_MS).toISOString(),
        createdAt: now.toISOString(),
      });
    });
    this.mail.sendInBackground(resetMail(input.language, user, this.link(user.email, token)), 'password reset');
  }

  /**
   * Sets the new password when the link's token is this e-mail's, unexpired and unused; the link
   * (and every other of the user) is spent, and every session ends. A bad link counts against the
   * same limits as requests.
   */
  async change(input: ChangePasswordInput, address: string): Promise<void> {
    await this.limiter.assertAllowed(input.email, address);
    const hash = tokenHash(input.hash);
    const user = await this.users.findWithCompany({ email: input.email });
    // A cheap read first: the slow password hash only for a link that looks valid.
    const row = user && (await this.validLink(user.id, hash));
    if (!user || !row) {
      await this.limiter.record(input.email, address);
      throw invalidLink();
    }
    const passwordHash = await hashPassword(input.password);
    await this.infra.db.transaction(async (trx) => {
      // The delete is the claim: of two uses at once, one deletes the row and the other finds none.
      const claimed = await trx(TABLE).where({ id: row.id }).delete();
      if (claimed !== 1) throw invalidLink();
      await trx(TABLE).where('userId', user.id).delete();
      if (!(await this.users.setPassword(user.id, passwordHash, trx))) throw invalidLink();
    });
    await this.limiter.forget(input.email);
    this.infra.log.info({ userId: user.id }, 'password changed through a recovery link');
  }

  private async validLink(userId: number, hash: string): Promise<{ id: number } | undefined> {
    return this.infra.db(TABLE)
      .where({ userId, tokenHash: hash })
      .where('expiresAt', '>', new Date().toISOString())
      .first<{ id: number } | undefined>('id');
  }

  /** The page that takes the new password. */
  private link(email: string, token: string): string {
    return this.mail.link(`/change-password/${encodeURIComponent(email)}/${token}`);
  }
}
