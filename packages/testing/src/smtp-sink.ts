import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo, Socket } from 'node:net';

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

/**
 * A whole-connection misbehaviour, besides the per-recipient verdicts:
 * - `greeting-421`: answers 421 instead of the greeting and closes (server busy / shutting down);
 * - `hang-on-data`: reads the message but never answers DATA (nothing is stored);
 * - `drop-after-store`: stores the message, then drops the connection before answering, so the
 *   client cannot know it was accepted (the window where a retry makes a duplicate).
 */
export type SmtpFault = 'none' | 'greeting-421' | 'hang-on-data' | 'drop-after-store';

export interface SmtpSink {
  port: number;
  url: string;
  messages: ReceivedEmail[];
  /** Decides per recipient; default accepts all. Replace it to script 451/550 answers. */
  onRecipient: (address: string, attempt: number) => RecipientVerdict;
  /** The fault applied to new transactions; default `none`. */
  fault: SmtpFault;
  /** How many transactions each fault hit (hung DATA, dropped after store, refused greetings). */
  faultCounts: Record<Exclude<SmtpFault, 'none'>, number>;
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
    fault: 'none',
    faultCounts: { 'greeting-421': 0, 'hang-on-data': 0, 'drop-after-store': 0 },
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
        // Re-arms itself until enough messages arrived (each arrival wakes and clears every waiter).
        const waiter = () => {
          if (!check()) waiters.push(waiter);
        };
        if (!check()) waiters.push(waiter);
      });
    },
    messagesTo(address) {
      return sink.messages.filter((message) => message.to.includes(address.toLowerCase()));
    },
    close: () =>
      new Promise((resolve) => {
        // Hung transactions would hold close() for smtp-server's 30 s grace period.
        for (const socket of sockets.values()) socket.destroy();
        server.close(() => resolve());
      }),
  };
  // The raw sockets by client port, so a fault can drop the connection of one transaction.
  const sockets = new Map<number, Socket>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 10 * 1024 * 1024,
    onConnect(_session, callback) {
      if (sink.fault !== 'greeting-421') {
        callback();
        return;
      }
      sink.faultCounts['greeting-421'] += 1;
      const error = new Error('Service not available, try again later') as Error & { responseCode: number };
      error.responseCode = 421;
      callback(error);
    },
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
      const fault = sink.fault;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (fault === 'hang-on-data') {
          sink.faultCounts['hang-on-data'] += 1;
          return; // never answer: the client waits until its own timeout
        }
        // Arrived when the last byte did: parsing below is the sink's own work, not the sender's.
        const receivedAt = Date.now();
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
              receivedAt,
            });
            for (const wake of waiters.splice(0)) wake();
            if (fault === 'drop-after-store') {
              sink.faultCounts['drop-after-store'] += 1;
              sockets.get(session.remotePort)?.destroy();
              return;
            }
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  server.server.on('connection', (socket: Socket) => {
    const port = socket.remotePort ?? 0;
    sockets.set(port, socket);
    socket.once('close', () => sockets.delete(port));
  });
  // A client SIGKILLed mid-transaction resets its socket: the client's failure, not the sink's
  // (unhandled, smtp-server's 'error' event would throw in the test process).
  server.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address() as AddressInfo;
  sink.port = address.port;
  sink.url = `smtp://127.0.0.1:${address.port}`;
  return sink;
}
