import type { Transporter } from 'nodemailer';
import { AppError } from '../errors.js';
import { ErrorCode } from '../contract/error-codes.js';
import type { Logger } from '../logger.js';

/** The languages e-mails are written in; pt-BR is the default, as in the web app. */
export const MAIL_LANGUAGES = ['pt-BR', 'en', 'es'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** An HTML version beside the text; the text is what every client can show. */
  html?: string;
}

export interface MailSettings {
  smtpUrl?: string;
  mailFrom?: string;
  publicUrl: string;
}

// An unreachable SMTP server must not hold a sender for nodemailer's minutes-long defaults.
const TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };

/** 503: the server has no SMTP address, so nothing can be e-mailed. */
export function mailNotConfigured(): AppError {
  return new AppError(ErrorCode.ERR_MAIL_NOT_CONFIGURED, 503, 'E-mail is not configured on this server; ask the administrator');
}

/**
 * Outgoing e-mail through the SMTP server of the config (`smtpUrl`, sender `mailFrom`). One
 * connection per message (no pool): mail is rare here, and nothing stays open between messages.
 */
export class MailService {
  private transport: Transporter | undefined;
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly settings: MailSettings,
    private readonly log: Logger,
  ) {}

  /** Whether an SMTP server is configured. */
  get configured(): boolean {
    return Boolean(this.settings.smtpUrl);
  }

  /** Sends now: 503 ERR_MAIL_NOT_CONFIGURED without an SMTP server; the SMTP server's refusal rejects. */
  async send(message: MailMessage): Promise<void> {
    await (await this.transporter()).sendMail({ from: this.from(), ...message });
  }

  /**
   * Sends after the caller has answered, so the answer neither waits for the SMTP server nor tells
   * by its timing whether anything was sent. A failure is logged; stopping the server waits for
   * the messages on their way (idle).
   */
  sendInBackground(message: MailMessage, what: string): void {
    const sending = this.send(message)
      .then(() => this.log.info({ what }, 'e-mail sent'))
      .catch((err: unknown) => this.log.error({ err, what }, 'e-mail not sent'))
      .finally(() => this.sending.delete(sending));
    this.sending.add(sending);
  }

  /**
   * An address of this server's pages as users reach it (config publicUrl), for links in e-mails:
   * never the request's Host, which a client chooses.
   */
  link(path: string): string {
    return `${this.settings.publicUrl.replace(/\/+$/, '')}${path}`;
  }

  /** Resolves once the messages sent in the background are through. */
  async idle(): Promise<void> {
    await Promise.all([...this.sending]);
  }

  private async transporter(): Promise<Transporter> {
    if (!this.settings.smtpUrl) throw mailNotConfigured();
    // Loaded by the first message, not by every server start.
    const { default: nodemailer } = await import('nodemailer');
    this.transport ??= nodemailer.createTransport({ url: this.settings.smtpUrl, ...TIMEOUTS });
    return this.transport;
  }

  private from(): string {
    return this.settings.mailFrom ?? `Atende <no-reply@${new URL(this.settings.publicUrl).hostname}>`;
  }
}
