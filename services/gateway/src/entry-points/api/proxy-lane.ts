import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import proxyaddr from 'proxy-addr';
import type { Logger } from 'pino';
import {
  commonStatusByCode,
  answerFailure,
  httpRequestRecorder,
  inRequestFrame,
  type Registry,
} from '@mailer/shared';
import { gatewayStatusByCode } from '../../domain/gateway.errors';
import { limitAddress } from '../../domain/limit-address';
import { checkAccess, type AccessDeps } from './access-guard';
import type { ForwardedRequest } from './upstream-proxy';

/** What serves a prefix once its request passed the key check: the service behind it (`UpstreamProxy`). */
export interface LaneTarget {
  forward(req: IncomingMessage, res: ServerResponse, request: ForwardedRequest): Promise<void>;
}

export interface ProxyLaneOptions {
  access: AccessDeps;
  /** The prefix the key guard covers (`/api/v1`), the label of the requests it refuses. */
  guardedPrefix: string;
  /** Each prefix served here (`/api/v1/contacts`) and what serves it. */
  targets: [prefix: string, target: LaneTarget][];
  /** TRUST_PROXY's entries, as the Express app is given them. */
  trustProxy: string[];
  metrics: Registry;
  logger: Logger;
}

/**
 * The keyed API on plain node:http, in front of the listener's Express app: a request under one of
 * the lane's prefixes (exactly as written, case and all) is authenticated, limited and proxied
 * here; everything else (pages, documents, probes, a path in another case) goes to Express. Both ends run the same access check, proxy,
 * error answers, request id, metrics and span: the Express chain cost more than the hop itself
 * (docs/performance.md).
 */
export class ProxyLane {
  private readonly record: ReturnType<typeof httpRequestRecorder>;
  private readonly statusByCode = { ...commonStatusByCode, ...gatewayStatusByCode };
  private readonly trusted: (address: string, hop: number) => boolean;

  constructor(private readonly options: ProxyLaneOptions) {
    this.record = httpRequestRecorder(options.metrics);
    this.trusted = proxyaddr.compile(options.trustProxy);
  }

  listener(fallback: RequestListener): RequestListener {
    return (req, res) => {
      const started = process.hrtime.bigint();
      const target = this.targetFor(req);
      if (target === undefined) {
        fallback(req, res);
        return;
      }
      void this.serve(req, res, target, started);
    };
  }

  private targetFor(req: IncomingMessage): [string, LaneTarget] | undefined {
    const url = req.url ?? '';
    for (const entry of this.options.targets) {
      const [prefix] = entry;
      if (!url.startsWith(prefix)) continue;
      const next = url.charAt(prefix.length);
      if (next !== '' && next !== '/' && next !== '?') continue;
      return entry;
    }
    return undefined;
  }

  private async serve(
    req: IncomingMessage,
    res: ServerResponse,
    [prefix, target]: [string, LaneTarget],
    started: bigint,
  ): Promise<void> {
    let route = this.options.guardedPrefix;
    res.once('close', () => this.record(req.method ?? '', route, res.statusCode, started));
    const path = req.url ?? '';
    await inRequestFrame('gateway', req, res, async () => {
      try {
        const clientIp = proxyaddr(req, this.trusted);
        const access = await checkAccess(this.options.access, req, res, limitAddress(clientIp), {
          requireKey: true,
        });
        if (access.kind === 'answered') return;
        route = prefix;
        await target.forward(req, res, { path, clientIp, accountId: access.accountId });
      } catch (error) {
        if (res.headersSent) return;
        answerFailure(res, req, error, this.statusByCode, this.options.logger);
      }
    });
  }
}
