import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { parseConnectionUrl } from 'nodemailer/lib/shared';
import { TokenBucket } from '../token-bucket';

export interface SmtpConnectionPoolOptions {
  url: string;
  /** Connections open at most. */
  size: number;
  /** Messages started per second across the pool (a token bucket, a tenth of a second's burst). */
  ratePerSecond: number;
  timeoutMs: number;
}

interface Waiter {
  resolve: (connection: SMTPConnection) => void;
  reject: (error: Error) => void;
}

/**
 * Runs one step of a connection's set-up (connect, login). Its callback is not always called: a
 * refused or lost connection is reported by the 'error' or 'end' event instead, so those settle it too.
 */
function settled(connection: SMTPConnection, step: (done: (error?: Error | null) => void) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const lost = (error?: Error) => finish(error ?? Object.assign(new Error('the SMTP server closed the connection'), { code: 'ECONNECTION' }));
    const finish = (error?: Error | null) => {
      connection.off('error', lost);
      connection.off('end', lost);
      if (error) reject(error);
      else resolve();
    };
    connection.once('error', lost);
    connection.once('end', lost);
    step(finish);
  });
}

/**
 * Finished messages over up to `size` open SMTP connections (nodemailer's SMTPConnection), one
 * message per connection at a time, like nodemailer's pool but without its per-message composing
 * and streaming: a message goes to the socket as the one buffer it is
 * (docs/adr/0024-smtp-sending-pipeline.md). As in our use of nodemailer's pool, nothing is resent here: a failed message
 * is the caller's to retry, through the ledger.
 */
export class SmtpConnectionPool {
  private readonly connectionOptions: SMTPConnection.Options;
  private readonly auth: SMTPConnection.Credentials | undefined;
  /** Every connection counted against `size`, connecting, idle or sending. */
  private readonly live = new Set<SMTPConnection>();
  private readonly idle: SMTPConnection[] = [];
  private readonly waiting: Waiter[] = [];
  private closed = false;
  private readonly rate: TokenBucket;

  constructor(private readonly options: SmtpConnectionPoolOptions) {
    this.rate = new TokenBucket(options.ratePerSecond);
    // The URL's user and password come back as `auth` (typed on the transport's options, not here).
    const { auth, ...fromUrl } = parseConnectionUrl(options.url) as SMTPConnection.Options & { auth?: SMTPConnection.Credentials };
    this.auth = auth?.user ? auth : undefined;
    this.connectionOptions = {
      ...fromUrl,
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
    };
  }

  /** Resolves with the server's answer once it accepted the message; rejects with its error. */
  async send(envelope: { from: string; to: string[] }, message: Buffer): Promise<string> {
    await this.rate.acquire();
    const connection = await this.acquire();
    let info: SMTPConnection.SentMessageInfo;
    try {
      info = await new Promise<SMTPConnection.SentMessageInfo>((resolve, reject) =>
        connection.send(envelope, message, (error, sent) => (error ? reject(error) : resolve(sent))),
      );
    } catch (error) {
      this.afterRefusal(connection, error as SMTPConnection.SMTPError);
      throw error;
    }
    this.release(connection);
    return info.response;
  }

  close(): void {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter.reject(new Error('the SMTP pool is closed'));
    for (const connection of this.idle.splice(0)) connection.quit();
  }

  /** The server refused this message but the session is fine: reset it and keep the connection. */
  private afterRefusal(connection: SMTPConnection, error: SMTPConnection.SMTPError): void {
    const refused = (error.code === 'EENVELOPE' || error.code === 'EMESSAGE') && error.responseCode !== 421;
    if (!refused || connection.destroyed) {
      this.discard(connection);
      return;
    }
    connection.reset((resetError) => {
      if (resetError) this.discard(connection);
      else this.release(connection);
    });
  }

  private acquire(): Promise<SMTPConnection> {
    if (this.closed) return Promise.reject(new Error('the SMTP pool is closed'));
    const ready = this.idle.pop();
    if (ready) return Promise.resolve(ready);
    if (this.live.size < this.options.size) return this.connect();
    return new Promise<SMTPConnection>((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private release(connection: SMTPConnection): void {
    if (connection.destroyed) return this.discard(connection);
    if (this.closed) {
      connection.quit();
      return;
    }
    const waiter = this.waiting.shift();
    if (waiter) waiter.resolve(connection);
    else this.idle.push(connection);
  }

  /** A connection gone: its slot goes to the next waiter, on a new connection. */
  private discard(connection: SMTPConnection): void {
    if (!this.live.delete(connection)) return;
    const at = this.idle.indexOf(connection);
    if (at >= 0) this.idle.splice(at, 1);
    if (!connection.destroyed) connection.close();
    const waiter = this.waiting.shift();
    if (waiter && !this.closed) this.connect().then(waiter.resolve, waiter.reject);
  }

  private async connect(): Promise<SMTPConnection> {
    const connection = new SMTPConnection(this.connectionOptions);
    this.live.add(connection);
    // An idle connection the server closes, or a socket error between messages, only ends it here;
    // a send in flight hears of it through its own callback.
    connection.on('error', () => this.discard(connection));
    connection.on('end', () => this.discard(connection));
    try {
      await settled(connection, (done) => connection.connect(done));
      // As nodemailer's pool: credentials are offered only to a server that announced AUTH.
      const auth = (connection as SMTPConnection & { allowsAuth?: boolean }).allowsAuth ? this.auth : undefined;
      if (auth) await settled(connection, (done) => connection.login(auth, done));
    } catch (error) {
      this.discard(connection);
      throw error;
    }
    return connection;
  }
}
