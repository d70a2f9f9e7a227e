import nodemailer, { type Transporter } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import { composeMimeMessage, type MimeMessageFields } from './mime-message';
import type { MailFrom } from '../mail-from';
import { SmtpConnectionPool } from './smtp-connection-pool';

/** A message to send: its fields, the sender only when not the configured one (a campaign's). */
export type OutgoingEmail = Omit<MimeMessageFields, 'from'> & { from?: MimeMessageFields['from'] };

/** How an SMTP failure is handled: retry later, give up, or give up and mark the recipient bounced. */
export type SmtpFailureKind = 'transient' | 'permanent' | 'bounce';

export class SmtpFailure extends Error {
  constructor(
    readonly kind: SmtpFailureKind,
    message: string,
    /** The server's reply code, when it answered (none for a lost or refused connection). */
    readonly smtpCode?: number,
  ) {
    super(message);
    this.name = 'SmtpFailure';
  }
}

interface NodemailerError {
  code?: string;
  responseCode?: number;
  command?: string;
  response?: string;
  message?: string;
}

/**
 * 4xx or no answer (connection refused, lost, timed out): transient. 5xx at RCPT: the address does
 * not exist, a bounce. Any other 5xx (our sender or the content refused): permanent, no bounce.
 */
export function classifySmtpError(error: unknown): SmtpFailure {
  const e = (error ?? {}) as NodemailerError;
  const detail = e.response ?? e.message ?? String(error);
  const code = e.responseCode;
  if (typeof code === 'number' && code >= 500) {
    return new SmtpFailure(/RCPT/i.test(e.command ?? '') ? 'bounce' : 'permanent', detail, code);
  }
  if (typeof code === 'number' && code >= 400) return new SmtpFailure('transient', detail, code);
  if (e.code === 'EMESSAGE' || e.code === 'EENVELOPE') return new SmtpFailure('permanent', detail);
  return new SmtpFailure('transient', detail);
}

export interface MailerOptions {
  url: string;
  from: MailFrom;
  poolSize: number;
  ratePerSecond: number;
  timeoutMs: number;
}

/**
 * Pooled SMTP with a shared send rate; the envelope is always explicit (only the contact). Every
 * message is finished before it goes (composeMimeMessage, or nodemailer's composer for an address
 * that writer leaves alone) and travels as one buffer over the connection pool.
 */
export class SmtpMailer {
  private readonly pool: SmtpConnectionPool;
  /** Only for `reachable()`: a connection of its own, as nodemailer's verify opens. */
  private readonly probe: Transporter;

  constructor(private readonly options: MailerOptions) {
    this.pool = new SmtpConnectionPool({ url: options.url, size: options.poolSize, ratePerSecond: options.ratePerSecond, timeoutMs: options.timeoutMs });
    this.probe = nodemailer.createTransport({
      url: options.url,
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
    });
  }

  /** Resolves with the server's answer once it accepted the message; rejects with an SmtpFailure. */
  async send(email: OutgoingEmail): Promise<string> {
    const from = email.from ?? this.options.from;
    try {
      const message = composeMimeMessage({ ...email, from }) ?? (await composeWithNodemailer({ ...email, from }));
      return await this.pool.send({ from: from.address, to: [email.to] }, message);
    } catch (error) {
      throw classifySmtpError(error);
    }
  }

  /** Whether the SMTP server answers and accepts our login now (a connection, no message). */
  async reachable(): Promise<boolean> {
    return this.probe.verify().then(
      () => true,
      () => false,
    );
  }

  close(): void {
    this.pool.close();
    this.probe.close();
  }
}

/** nodemailer's own composer, for what composeMimeMessage does not write (international addresses). */
function composeWithNodemailer(email: OutgoingEmail & { from: MailerOptions['from'] }): Promise<Buffer> {
  const { to, from, subject, html, text, messageId, headers } = email;
  return new MailComposer({ from, to, subject, html, text, messageId, headers, disableFileAccess: true, disableUrlAccess: true }).compile().build();
}
