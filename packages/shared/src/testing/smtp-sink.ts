import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';

export interface ReceivedEmail {
  from: string;
  to: string[];
  raw: string;
  parsed: ParsedMail;
  /** Header lines as sent, lower-cased names (for asserting exact header values). */
  headers: Map<string, string>;
  receivedAt: number;
}

/** How the sink answers one recipient: accept, or an SMTP error code and text. */
export type RecipientVerdict = { accept: true } | { accept: false; code: number; message: string };

export interface SmtpSink {
  port: number;
  url: string;
  messages: ReceivedEmail[];
  /** Decides per recipient; default accepts all. Replace it to script 451/550 answers. */
  onRecipient: (address: string, attempt: number) => RecipientVerdict;
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedEmail[]>;
  messagesTo(address: string): ReceivedEmail[];
  close(): Promise<void>;
}

function headerMap(raw: string): Map<string, string> {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** A real SMTP server on loopback that keeps every message it accepts, for tests and benchmarks. */
export async function startSmtpSink(options: { port?: number } = {}): Promise<SmtpSink> {
  const attempts = new Map<string, number>();
  const waiters: Array<() => void> = [];
  const sink: SmtpSink = {
    port: 0,
    url: '',
    messages: [],
    onRecipient: () => ({ accept: true }),
    waitForMessages(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (sink.messages.length >= count) {
            clearTimeout(timer);
            resolve(sink.messages);
            return true;
          }
          return false;
        };
        const timer = setTimeout(
          () => reject(new Error(`expected ${count} emails, got ${sink.messages.length}`)),
          timeoutMs,
        );
        if (!check()) waiters.push(() => void check());
      });
    },
    messagesTo(address) {
      return sink.messages.filter((message) => message.to.includes(address.toLowerCase()));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 10 * 1024 * 1024,
    onRcptTo(address: SMTPServerAddress, _session: SMTPServerSession, callback: (error?: Error | null) => void) {
      const recipient = address.address.toLowerCase();
      const attempt = (attempts.get(recipient) ?? 0) + 1;
      attempts.set(recipient, attempt);
      const verdict = sink.onRecipient(recipient, attempt);
      if (verdict.accept) {
        callback();
        return;
      }
      const error = new Error(verdict.message) as Error & { responseCode: number };
      error.responseCode = verdict.code;
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then(
          (parsed) => {
            const envelope = session.envelope;
            sink.messages.push({
              from: envelope.mailFrom ? envelope.mailFrom.address : '',
              to: envelope.rcptTo.map((recipient) => recipient.address.toLowerCase()),
              raw,
              parsed,
              headers: headerMap(raw),
              receivedAt: Date.now(),
            });
            for (const wake of waiters.splice(0)) wake();
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address() as AddressInfo;
  sink.port = address.port;
  sink.url = `smtp://127.0.0.1:${address.port}`;
  return sink;
}
