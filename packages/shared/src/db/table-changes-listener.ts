import pg from 'pg';
import type { Logger } from 'pino';
import { backoffDelay } from '../messaging/backoff';

export interface TableChangesOptions {
  databaseUrl: string;
  /** The NOTIFY channel a table's trigger sends on (a plain identifier). */
  channel: string;
  /** The listening connection's application_name, as pg_stat_activity shows it. */
  applicationName: string;
  logger: Logger;
  onChange: () => void;
}

/** How often the listening connection is checked: one that died silently (no FIN) would hear nothing. */
const HEARTBEAT_MS = 30_000;

/**
 * LISTENs for a table's changes made by any process (another instance, an operator CLI, plain SQL),
 * told by the table's NOTIFY trigger, and calls `onChange`. A lost connection is reopened with
 * backoff, and `onChange` is called once listening again: changes made while nobody listened were
 * not heard.
 */
export class TableChangesListener {
  private client: pg.Client | undefined;
  private reconnecting: Promise<void> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private cancelWait: (() => void) | undefined;
  private stopped = false;

  constructor(private readonly options: TableChangesOptions) {
    if (!/^[a-z_][a-z0-9_]*$/.test(options.channel)) throw new Error(`not a channel name: ${options.channel}`);
  }

  /** Resolves once listening, or once the first attempt failed (it keeps trying in the background). */
  async start(): Promise<void> {
    try {
      await this.listen();
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
    client.on('notification', () => this.options.onChange());
    client.on('error', (error: Error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.options.channel}`);
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
    this.options.logger.warn({ err: error, channel: this.options.channel }, 'lost the table-changes listener; reconnecting');
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
        this.options.logger.info({ channel: this.options.channel }, 'listening for table changes again');
        this.options.onChange();
        return;
      } catch (error) {
        this.options.logger.warn({ err: error, channel: this.options.channel }, 'table-changes listener could not reconnect; retrying');
      }
    }
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
