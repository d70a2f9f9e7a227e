import pg from 'pg';
import type { Logger } from 'pino';
import { backoffDelay } from '../messaging/backoff';

export interface TableChangesOptions {
  databaseUrl: string;
  /** The listening connection's application_name, as pg_stat_activity shows it. */
  applicationName: string;
  logger: Logger;
}

/** How often the listening connection is checked: one that died silently (no FIN) would hear nothing. */
const HEARTBEAT_MS = 30_000;

const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * LISTENs on one connection for the channels registered with `on`: tables' changes made by any
 * process (another instance, an operator CLI, plain SQL), told by their NOTIFY triggers or
 * statements. Each channel's `onChange` is called on its notifications, and once whenever listening
 * starts or starts again (a lost connection is reopened with backoff): changes made while nobody
 * listened were not heard.
 *
 * One connection per database and process, not one per channel: a NOTIFY wakes every listening
 * backend of its database, whatever channel it listens on (PostgreSQL 15's async.c), so each extra
 * listening connection costs a backend wake-up per notification of any channel.
 */
export class TableChangesListener {
  private readonly handlers = new Map<string, () => void>();
  private client: pg.Client | undefined;
  private reconnecting: Promise<void> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private cancelWait: (() => void) | undefined;
  private started = false;
  private stopped = false;

  constructor(private readonly options: TableChangesOptions) {}

  /** Calls `onChange` on each notification on `channel` (a plain lower-case identifier); before `start` only. */
  on(channel: string, onChange: () => void): this {
    if (!CHANNEL_NAME.test(channel)) throw new Error(`not a channel name: ${channel}`);
    if (this.started) throw new Error(`listen on ${channel} before the listener starts`);
    if (this.handlers.has(channel)) throw new Error(`already listening on ${channel}`);
    this.handlers.set(channel, onChange);
    return this;
  }

  /**
   * Resolves once listening (every channel's `onChange` called once), or once the first attempt
   * failed (it keeps trying in the background).
   */
  async start(): Promise<void> {
    if (this.handlers.size === 0) throw new Error('no channel to listen on');
    this.started = true;
    try {
      await this.listen();
      this.changedWhileDeaf();
    } catch (error) {
      this.lost(undefined, error);
    }
    this.heartbeat = setInterval(() => void this.check(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.heartbeat);
    this.cancelWait?.();
    await this.reconnecting;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.options.databaseUrl,
      application_name: this.options.applicationName,
      keepAlive: true,
      connectionTimeoutMillis: 5000,
      query_timeout: 5000,
    });
    client.on('notification', (message) => this.handlers.get(message.channel)?.());
    client.on('error', (error: Error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query([...this.handlers.keys()].map((channel) => `LISTEN ${channel}`).join('; '));
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
  }

  private async check(): Promise<void> {
    const client = this.client;
    if (!client) return;
    await client.query('SELECT 1').catch((error: unknown) => this.lost(client, error));
  }

  /** `client` undefined: the first connection failed. Events of a client already replaced are ignored. */
  private lost(client: pg.Client | undefined, error?: unknown): void {
    if (client !== this.client || this.stopped) return;
    this.client = undefined;
    void client?.end().catch(() => undefined);
    this.options.logger.warn({ err: error, channels: this.channels() }, 'lost the table-changes listener; reconnecting');
    this.reconnecting ??= this.reconnect().finally(() => {
      this.reconnecting = undefined;
    });
  }

  private async reconnect(): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt++) {
      await this.wait(backoffDelay(Math.min(attempt, 6), 200, 10_000));
      if (this.stopped) return;
      try {
        await this.listen();
        this.options.logger.info({ channels: this.channels() }, 'listening for table changes again');
        this.changedWhileDeaf();
        return;
      } catch (error) {
        this.options.logger.warn({ err: error, channels: this.channels() }, 'table-changes listener could not reconnect; retrying');
      }
    }
  }

  private changedWhileDeaf(): void {
    for (const onChange of this.handlers.values()) onChange();
  }

  private channels(): string[] {
    return [...this.handlers.keys()];
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.cancelWait = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
