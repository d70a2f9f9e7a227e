import { pipeline } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { ClientAborted, requestBody } from './request-body';
import type { Logger } from 'pino';
import { Pool, type Dispatcher } from 'undici';
import { AppError, IDENTITY_HEADER, injectTraceContext, SERVICE_ATTRIBUTE, signIdentity, SpanKind, withSpan } from '@mailer/shared';
import { GatewayErrorCodes } from '../../domain/gateway.errors';
import { accountOf } from './access-guard';
import { requestHeadersForUpstream, responseHeadersForClient } from './proxy-headers';

export interface UpstreamOptions {
  name: string;
  url: string;
  signingSecret: string;
  timeoutMs: number;
  /** The largest request body forwarded (after any Content-Encoding is undone); larger is 413. */
  maxBodyBytes: number;
  logger: Logger;
}

/** What the proxy needs besides the request itself. */
export interface ForwardedRequest {
  /** Path with query as the client sent it (the identity signature covers it). */
  path: string;
  /** The client's address (TRUST_PROXY applied), passed on in X-Forwarded-For. */
  clientIp: string;
  /** The authenticated account; none on public routes. */
  accountId?: number;
}

const SMALL_BODY_BYTES = 64 * 1024;

const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

export function upstreamError(name: string, error: unknown): AppError {
  const code = (error as { code?: string } | null)?.code ?? '';
  if (UNREACHABLE.has(code)) {
    return new AppError(GatewayErrorCodes.UPSTREAM_UNAVAILABLE, `${name} service unavailable`).withHeaders({ 'Retry-After': '5' });
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT') {
    return new AppError(GatewayErrorCodes.UPSTREAM_TIMEOUT, `${name} service timed out`);
  }
  return new AppError(GatewayErrorCodes.UPSTREAM_FAILED, `${name} service failed`);
}

/**
 * Forwards the request to one internal service over a keep-alive pool, path and query unchanged,
 * the body read whole (bounded) and sent with its length. The account (when the route is
 * authenticated) travels in the identity header, signed for this method, path, query and body;
 * the caller's credentials never go further than the gateway.
 */
export class UpstreamProxy {
  private readonly pool: Pool;

  constructor(private readonly options: UpstreamOptions) {
    this.pool = new Pool(new URL(options.url).origin, {
      connections: 64,
      connectTimeout: 2000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 4000,
    });
  }

  /** Express's end of `forward`, mounted on a prefix: `req.originalUrl` is the path sent on. */
  handler(): RequestHandler {
    return (req, res) => this.forward(req, res, { path: req.originalUrl, clientIp: req.ip ?? '', accountId: accountOf(res) });
  }

  /**
   * Sends the request on and its answer back; a failure to reach the service rejects with the
   * AppError to answer (nothing has been written then). A CLIENT span per proxied request: its
   * traceparent goes upstream, so the service's spans join the trace.
   */
  forward(req: IncomingMessage, res: ServerResponse, request: ForwardedRequest): Promise<void> {
    return withSpan(
      `proxy ${this.options.name}`,
      { [SERVICE_ATTRIBUTE]: 'gateway', 'http.request.method': req.method ?? '', 'mailer.upstream': this.options.name },
      () => this.send(req, res, request),
      { kind: SpanKind.CLIENT },
    );
  }

  private async send(req: IncomingMessage, res: ServerResponse, request: ForwardedRequest): Promise<void> {
    let body: Buffer | null;
    try {
      body = await requestBody(req, this.options.maxBodyBytes);
    } catch (error) {
      if (error instanceof ClientAborted) {
        this.options.logger.debug({ upstream: this.options.name }, 'client request interrupted');
        return;
      }
      throw error;
    }
    const requestId = String(req.headers['x-request-id']);
    const { accountId, path } = request;
    const extra: Record<string, string> = { 'x-request-id': requestId, 'x-forwarded-for': request.clientIp };
    if (body) extra['content-length'] = String(body.length);
    if (accountId !== undefined) {
      extra[IDENTITY_HEADER] = signIdentity(
        { accountId, requestId },
        { method: req.method ?? '', path, body },
        this.options.signingSecret,
      );
    }
    injectTraceContext(extra);
    let upstream;
    try {
      upstream = await this.pool.request({
        method: req.method as 'GET',
        path,
        headers: requestHeadersForUpstream(req.headers, extra),
        body,
      });
    } catch (error) {
      this.options.logger.warn({ err: error, upstream: this.options.name }, 'upstream request failed');
      throw upstreamError(this.options.name, error);
    }
    const length = Number(upstream.headers['content-length'] ?? -1);
    if (length >= 0 && length <= SMALL_BODY_BYTES) {
      // Small JSON answers are read whole: cheaper than a stream pipeline, and a failure mid-body
      // can still become a clean 502 because nothing has been sent yet.
      let body: Buffer;
      try {
        body = Buffer.from(await upstream.body.arrayBuffer());
      } catch (error) {
        this.options.logger.warn({ err: error, upstream: this.options.name }, 'upstream response interrupted');
        throw upstreamError(this.options.name, error);
      }
      this.writeHead(res, upstream);
      res.end(body);
      return;
    }
    this.writeHead(res, upstream);
    pipeline(upstream.body, res, (error) => {
      if (!error) return;
      // A client that hangs up mid-download is routine; an upstream that breaks off is not.
      const level = req.destroyed ? 'debug' : 'warn';
      this.options.logger[level]({ err: error, upstream: this.options.name }, 'upstream response interrupted');
    });
  }

  private writeHead(res: ServerResponse, upstream: Dispatcher.ResponseData): void {
    for (const [name, value] of responseHeadersForClient(upstream.headers)) res.setHeader(name, value);
    res.statusCode = upstream.statusCode;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
