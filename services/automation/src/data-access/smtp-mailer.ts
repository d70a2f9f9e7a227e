import nodemailer, { type Transporter } from 'nodemailer';
import { composeMimeMessage } from './mime-message';

export interface OutgoingEmail {
  to: string;
  subject: string;
  html: string | undefined;
  text: string;
  messageId: string;
  headers: Record<string, string>;
  /** The sender when not the configured one (a campaign's from name and address). */
  from?: MailerOptions['from'];
}

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
  from: { name?: string | undefined; address: string };
  poolSize: number;
  ratePerSecond: number;
  timeoutMs: number;
}

/** Parses `Name <address>` or `address`. */
export function parseMailFrom(value: string): MailerOptions['from'] {
  const match = /^\s*(.*?)\s*<([^<>\s]+@[^<>\s]+)>\s*$/.exec(value);
  if (match) return { name: match[1]?.replace(/^"|"$/g, '') || undefined, address: match[2]! };
  return { address: value.trim() };
}

/** Pooled SMTP with a shared send rate; the envelope is always explicit (only the contact). */
export class SmtpMailer {
  private readonly transport: Transporter;

  constructor(private readonly options: MailerOptions) {
    this.transport = nodemailer.createTransport({
      pool: true,
      url: options.url,
      maxConnections: options.poolSize,
      maxMessages: Infinity,
      // Retries are ours (ledger, backoff, bounded attempts): the pool must not resend on its own.
      maxRequeues: 0,
      rateDelta: 1000,
      rateLimit: options.ratePerSecond,
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
      disableFileAccess: true,
      disableUrlAccess: true,
    });
  }

  /**
   * Resolves with the server's answer once it accepted the message; rejects with an SmtpFailure.
   * The message goes to the pool finished, as one buffer (composeMimeMessage); only an address
   * that writer leaves alone goes as fields for nodemailer's composer.
   */
  async send(email: OutgoingEmail): Promise<string> {
    const from = email.from ?? this.options.from;
    const envelope = { from: from.address, to: [email.to] };
    const raw = composeMimeMessage({ ...email, from });
    try {
      const info = (await this.transport.sendMail(
        raw
          ? // The Message-ID only spares nodemailer generating one for its log: a raw message goes as it is.
            { envelope, raw, messageId: email.messageId }
          : { envelope, from, to: email.to, subject: email.subject, html: email.html, text: email.text, messageId: email.messageId, headers: email.headers },
      )) as { response?: string };
      return info.response ?? 'accepted';
    } catch (error) {
      throw classifySmtpError(error);
    }
  }

  /** Whether the SMTP server answers and accepts our login now (a connection, no message). */
  async reachable(): Promise<boolean> {
    return this.transport.verify().then(
      () => true,
      () => false,
    );
  }

  close(): void {
    this.transport.close();
  }
}
