import { pipeline } from 'node:stream';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { Pool } from 'undici';
import { injectTraceContext } from '@mailer/shared';
import { requestHeadersForUpstream, responseHeadersForClient } from './proxy-headers';
import { upstreamError } from './upstream-proxy';

export interface AppProxyOptions {
  url: string;
  timeoutMs: number;
  logger: Logger;
}

/**
 * Forwards browser requests to the account app (services/web), path and query unchanged. Unlike
 * the API proxy it carries the browser's cookies (the app's session is the app's business; the
 * gateway signs no identity here), streams the body (a CSV import may be large; the app limits
 * it), and says how the browser reached us, so the app sets Secure cookies and checks Origin.
 */
export class AppProxy {
  private readonly pool: Pool;

  constructor(private readonly options: AppProxyOptions) {
    this.pool = new Pool(new URL(options.url).origin, {
      connections: 32,
      connectTimeout: 2000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 4000,
    });
  }

  handler(): RequestHandler {
    return (req, res, next) => void this.forward(req, res, next);
  }

  private async forward(req: Request, res: Response, next: NextFunction): Promise<void> {
    const extra: Record<string, string> = {
      'x-request-id': String(req.headers['x-request-id']),
      'x-forwarded-for': req.ip ?? '',
      'x-forwarded-proto': req.protocol,
      'x-forwarded-host': req.get('host') ?? '',
    };
    const headers = requestHeadersForUpstream(req.headers, extra);
    for (const name of ['cookie', 'content-length', 'content-encoding'] as const) {
      const value = req.headers[name];
      if (value !== undefined) headers[name] = value;
    }
    injectTraceContext(headers);
    const hasBody = req.headers['content-length'] !== undefined ? req.headers['content-length'] !== '0' : req.headers['transfer-encoding'] !== undefined;
    let upstream;
    try {
      upstream = await this.pool.request({
        method: req.method as 'GET',
        path: req.originalUrl,
        headers,
        body: hasBody ? req : null,
      });
    } catch (error) {
      this.options.logger.warn({ err: error, upstream: 'web' }, 'upstream request failed');
      next(upstreamError('web', error));
      return;
    }
    for (const [name, value] of responseHeadersForClient(upstream.headers)) res.setHeader(name, value);
    res.statusCode = upstream.statusCode;
    pipeline(upstream.body, res, (error) => {
      if (error) this.options.logger[req.destroyed ? 'debug' : 'warn']({ err: error, upstream: 'web' }, 'upstream response interrupted');
    });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
