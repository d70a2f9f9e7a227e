import { pipeline } from 'node:stream';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
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
  logger: Logger;
}

const SMALL_BODY_BYTES = 64 * 1024;

const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

function upstreamError(name: string, error: unknown): AppError {
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
 * The body to forward: none, a small body read whole (sent upstream with its length in one write,
 * cheaper than piping a stream through), or the request itself, streamed, when it is large or its
 * length is not announced.
 */
function requestBody(req: Request): Promise<Buffer | Request | null> {
  const length = req.headers['content-length'];
  if (req.headers['transfer-encoding'] !== undefined) return Promise.resolve(req);
  if (length === undefined || length === '0') return Promise.resolve(null);
  if (Number(length) > SMALL_BODY_BYTES) return Promise.resolve(req);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.once('error', reject);
    // 'close' before 'end' means the client hung up mid-body (resolving first makes this a no-op).
    req.once('close', () => reject(new Error('request aborted')));
  });
}

/**
 * Forwards the request to one internal service over a keep-alive pool, path and query unchanged,
 * small bodies read whole, large ones streamed. The account (when the route is authenticated)
 * travels in the signed identity header; the caller's credentials never go further than the gateway.
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

  handler(): RequestHandler {
    // A CLIENT span per proxied request; its traceparent goes upstream, so the service's spans join the trace.
    return (req, res, next) =>
      withSpan(
        `proxy ${this.options.name}`,
        { [SERVICE_ATTRIBUTE]: 'gateway', 'http.request.method': req.method, 'mailer.upstream': this.options.name },
        () => this.forward(req, res, next),
        { kind: SpanKind.CLIENT },
      );
  }

  private async forward(req: Request, res: Response, next: NextFunction): Promise<void> {
    const requestId = String(req.headers['x-request-id']);
    const accountId = accountOf(res);
    const extra: Record<string, string> = { 'x-request-id': requestId, 'x-forwarded-for': req.ip ?? '' };
    if (accountId !== undefined) {
      extra[IDENTITY_HEADER] = signIdentity({ accountId, requestId }, this.options.signingSecret);
    }
    injectTraceContext(extra);
    let body: Buffer | Request | null;
    try {
      body = await requestBody(req);
    } catch (error) {
      // The client went away (or broke off) mid-body: there is no one left to answer.
      this.options.logger.debug({ err: error, upstream: this.options.name }, 'client request interrupted');
      return;
    }
    let upstream;
    try {
      upstream = await this.pool.request({
        method: req.method as 'GET',
        path: req.originalUrl,
        headers: requestHeadersForUpstream(req.headers, extra),
        body,
      });
    } catch (error) {
      this.options.logger.warn({ err: error, upstream: this.options.name }, 'upstream request failed');
      next(upstreamError(this.options.name, error));
      return;
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
        next(upstreamError(this.options.name, error));
        return;
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

  private writeHead(res: Response, upstream: Dispatcher.ResponseData): void {
    for (const [name, value] of responseHeadersForClient(upstream.headers)) res.setHeader(name, value);
    res.statusCode = upstream.statusCode;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
