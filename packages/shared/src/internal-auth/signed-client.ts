import { Pool } from 'undici';
import { AppError, CommonErrorCodes } from '../errors/app-error';
import { injectTraceContext } from '../tracing/tracing';
import { IDENTITY_HEADER, signIdentity } from './identity-signature';

/** Who a call is made for: the signed-in account (0 before anyone is signed in) and the page's request id. */
export interface Caller {
  accountId: number;
  requestId: string;
}

export interface ServiceAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET']);

/** A service that cannot be reached, or answers 5xx, is a passing outage for the page: 503, retry. */
function unavailable(name: string): AppError {
  return new AppError(CommonErrorCodes.UNAVAILABLE, `${name} is unavailable`).withHeaders({ 'Retry-After': '5' });
}

/**
 * Calls one internal service the way the gateway's proxy does: the account in the identity header,
 * signed for this method, path with query and body (the shared helper, never a second scheme).
 * Answers below 500 are returned for the caller to read (a 404 or 422 means something to a page);
 * an unreachable service, a timeout or a 5xx becomes a 503.
 */
export class SignedClient {
  private readonly pool: Pool;

  constructor(
    readonly name: string,
    baseUrl: string,
    private readonly secret: string,
    timeoutMs: number,
  ) {
    this.pool = new Pool(new URL(baseUrl).origin, {
      connections: 32,
      connectTimeout: 2000,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      keepAliveTimeout: 4000,
    });
  }

  async call(caller: Caller, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, json?: unknown): Promise<ServiceAnswer> {
    const body = json === undefined ? null : Buffer.from(JSON.stringify(json), 'utf8');
    const headers: Record<string, string> = {
      accept: 'application/json',
      'x-request-id': caller.requestId,
      [IDENTITY_HEADER]: signIdentity(caller, { method, path, body }, this.secret),
    };
    if (body) headers['content-type'] = 'application/json';
    injectTraceContext(headers);
    let answer;
    try {
      answer = await this.pool.request({ method, path, headers, body });
    } catch (error) {
      const code = (error as { code?: string } | null)?.code ?? '';
      if (UNREACHABLE.has(code) || code.startsWith('UND_ERR')) throw unavailable(this.name);
      throw error;
    }
    const text = await answer.body.text().catch(() => {
      throw unavailable(this.name);
    });
    if (answer.statusCode >= 500) throw unavailable(this.name);
    let parsed: unknown = undefined;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        throw unavailable(this.name);
      }
    }
    return { status: answer.statusCode, headers: answer.headers, body: parsed };
  }

  /** The raw streamed answer, for exports that must not be held in memory. */
  async stream(caller: Caller, path: string) {
    const headers: Record<string, string> = {
      'x-request-id': caller.requestId,
      [IDENTITY_HEADER]: signIdentity(caller, { method: 'GET', path, body: null }, this.secret),
    };
    injectTraceContext(headers);
    try {
      return await this.pool.request({ method: 'GET', path, headers });
    } catch {
      throw unavailable(this.name);
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** A 2xx answer's body, or the error the page shows for anything else. */
export function expectOk<T>(answer: ServiceAnswer, name: string): T {
  if (answer.status >= 200 && answer.status < 300) return answer.body as T;
  if (answer.status === 404) throw new AppError(CommonErrorCodes.NOT_FOUND, `${name}: not found`);
  throw new AppError(CommonErrorCodes.BAD_GATEWAY, `${name} answered ${answer.status}`);
}
