import { Inject, Injectable } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import type { Logger } from 'pino';
import { ServiceLogger } from '../logging/logger';

/** How long the mail server has to answer at each step; past it the invitation is shown only to the inviter. */
const SMTP_TIMEOUT_MS = 10_000;

export interface InvitationMail {
  to: string;
  merchantName: string;
  invitedBy: string;
  role: string;
  url: string;
  expiresAt: Date;
}

/**
 * Mails an invitation's link when SMTP_URL is set. The link is always shown
 * to the inviter too, so a mail server is never needed to use the product,
 * and a mail that fails is logged (never with its link) and reported as not
 * mailed.
 */
@Injectable()
export class InvitationMailer {
  private readonly transport: Transporter | undefined;

  constructor(
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(ServiceLogger) private readonly logger: Logger,
  ) {
    this.transport = config.dashboard.smtpUrl === undefined ? undefined : createTransport(smtpOptions(config.dashboard.smtpUrl));
  }

  /** Whether the mail server took the mail. */
  async send(mail: InvitationMail): Promise<boolean> {
    if (!this.transport) return false;
    try {
      await this.transport.sendMail({
        from: this.config.dashboard.mailFrom,
        to: mail.to,
        subject: `${mail.invitedBy} invited you to ${mail.merchantName} on Paysign`,
        text: [
          `${mail.invitedBy} invited you to join ${mail.merchantName}'s team on the Paysign dashboard, as ${mail.role}.`,
          '',
          'Open this link to set your password and a second factor. It works once, until ' + mail.expiresAt.toISOString() + ':',
          mail.url,
          '',
          'If you did not expect this, ignore this mail: nothing happens until the link is used.',
        ].join('\n'),
      });
      return true;
    } catch (error) {
      this.logger.warn({ to: mail.to, error: (error as Error).message }, 'invitation not mailed: the inviter was shown its link');
      return false;
    }
  }
}

/** SMTP_URL as nodemailer's options, with the timeouts its URL form cannot carry. */
function smtpOptions(smtpUrl: string) {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  return {
    host: url.hostname,
    port: url.port === '' ? (secure ? 465 : 587) : Number(url.port),
    secure,
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  };
}
