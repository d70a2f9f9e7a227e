import { lookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { refusalOf, type AddressPolicy } from '../domain/address-policy';

/** What one POST to an endpoint came to: an answer (any status), or why there was none. */
export interface HttpAttempt {
  status: number | null;
  latencyMs: number;
  /** The first KiB of the answer's body, as text. */
  excerpt: string;
  /** Set when no answer came: refused address, timeout, connection failure, oversized answer. */
  error: string | null;
}

export interface WebhookHttpOptions {
  policy: AddressPolicy;
  timeoutMs: number;
  responseLimitBytes: number;
}

const EXCERPT_BYTES = 1024;

/** Raised inside the connection's DNS lookup, so the address checked is the address connected to. */
class AddressRefused extends Error {
  readonly code = 'WEBHOOK_ADDRESS_REFUSED';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

const refusedIn = (error: unknown): AddressRefused | undefined => {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if (current instanceof AddressRefused) return current;
  }
  return undefined;
};

const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'timed out';
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
};

/**
 * POSTs webhooks safely: every address a host name resolves to is checked at connect time (no
 * second lookup an attacker's DNS could answer differently), a literal IP in the URL is checked
 * before any socket opens, the whole attempt has one deadline, at most `responseLimitBytes` of the
 * answer are read, and redirects are not followed (undici's `request` never follows them).
 */
export class WebhookHttp {
  private readonly agent: Agent;

  constructor(private readonly options: WebhookHttpOptions) {
    this.agent = new Agent({
      connect: { timeout: options.timeoutMs, lookup: (host, opts, callback) => this.vettedLookup(host, opts, callback as LookupCallback) },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      // A fresh connection per endpoint and attempt would cost a handshake each; keep them briefly.
      keepAliveTimeout: 4000,
    });
  }

  /** Why this URL's host cannot be reached now, or undefined; used when an endpoint is saved. */
  async refusal(url: URL): Promise<string | undefined> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0) return refusalOf(host, host, this.options.policy);
    const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
      lookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
    ).catch(() => undefined);
    if (addresses === undefined || addresses.length === 0) return `${host} does not resolve`;
    for (const { address } of addresses) {
      const refusal = refusalOf(host, address, this.options.policy);
      if (refusal) return refusal;
    }
    return undefined;
  }

  async post(url: string, headers: Record<string, string>, body: string): Promise<HttpAttempt> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const parsed = new URL(url);
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0) {
      const refusal = refusalOf(host, host, this.options.policy);
      if (refusal) return { status: null, latencyMs: 0, excerpt: '', error: `refused: ${refusal}` };
    }
    try {
      const answer = await request(parsed, {
        method: 'POST',
        dispatcher: this.agent,
        headers: { 'content-type': 'application/json', 'user-agent': 'mailer-webhooks/1', ...headers },
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      const { text, truncated } = await this.readCapped(answer.body);
      return { status: answer.statusCode, latencyMs: elapsed(), excerpt: text, error: truncated ? `answer larger than ${this.options.responseLimitBytes} bytes; not read further` : null };
    } catch (error) {
      const refused = refusedIn(error);
      return { status: null, latencyMs: elapsed(), excerpt: '', error: refused ? `refused: ${refused.message}` : describe(error) };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private async readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<{ text: string; truncated: boolean }> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > this.options.responseLimitBytes) {
        body.destroy();
        return { text: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'), truncated: true };
      }
      if (size - chunk.length < EXCERPT_BYTES) chunks.push(chunk);
    }
    return { text: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'), truncated: false };
  }

  private vettedLookup(host: string, opts: { all?: boolean }, callback: LookupCallback): void {
    lookup(host, { all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const { address } of addresses) {
        const refusal = refusalOf(host, address, this.options.policy);
        if (refusal) return callback(new AddressRefused(refusal), []);
      }
      if (opts.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${host} does not resolve`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  }
}
