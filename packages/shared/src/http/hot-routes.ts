import type { IncomingHttpHeaders, IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { AppError, CommonErrorCodes, commonStatusByCode } from '../errors/app-error';
import {
  bodyDigest,
  IDENTITY_HEADER,
  NO_BODY,
  verifyIdentity,
  type Identity,
} from '../internal-auth/identity-signature';
import { httpRequestRecorder } from '../metrics/http-metrics';
import type { Registry } from '../metrics/registry';
import { answerFailure } from './error-middleware';
import { parseJsonBytes } from './json-body';
import { inRequestFrame } from './request-frame';
import { sendJson } from './send-json';

/** One request a hot route serves: identity verified, body (when the route takes one) parsed. */
export interface HotRequest {
  readonly req: IncomingMessage;
  /** The values of the template's `:name` segments, in order. */
  readonly params: readonly string[];
  readonly identity: Identity;
  /** The JSON body, for routes that take one. */
  readonly body: unknown;
}

export interface JsonAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type HotHandler = (request: HotRequest) => Promise<JsonAnswer>;

export interface HotRoutesOptions {
  service: string;
  signingSecret: string;
  metrics: Registry;
  logger: Logger;
  /** The service's own error codes, as its Express error middleware has them. */
  statusByCode: Record<string, number>;
}

interface HotRoute {
  method: string;
  /** Literal segments, or null where the template has a `:name`. */
  segments: (string | null)[];
  /** The template, as the metrics label it. */
  template: string;
  handler: HotHandler;
  /** Routes that take a JSON body: the largest accepted. */
  bodyLimitBytes?: number;
  /** Told of every failure on this route (body or handler) before it is answered. */
  onError?: (error: unknown) => void;
}

export interface HotRouteOptions {
  /** The route takes a JSON body of at most this many bytes. */
  bodyLimitBytes?: number;
  /** Told of every failure on this route (body or handler) before it is answered. */
  onError?: (error: unknown) => void;
}

/** The one body shape served here; any other Content-Type (or charset) takes the full way. */
const PLAIN_JSON = /^application\/json(?:\s*;\s*charset="?utf-8"?)?$/i;

/** The client hung up mid-body: there is no one left to answer. */
class ClientGone extends Error {}

/**
 * The API's busiest routes on plain node:http, in front of the service's Express app. A request is
 * served here only when everything its headers say is the common case: the exact method and path
 * of a route, a valid identity signature, and either no body or one plain JSON body with a declared
 * length within the limit. Anything else (a bad signature, a chunked or compressed body, another
 * media type, HEAD, a trailing slash) goes to the Express app, which answers it, errors included,
 * exactly as before. Both ends share the route's handler, the error answers, the request id, the
 * metrics and the span, so a client cannot tell which one served it; the Express chain cost about
 * twice the work of the request itself (docs/performance.md).
 */
export class HotRoutes {
  private readonly routes: HotRoute[] = [];
  private readonly record: ReturnType<typeof httpRequestRecorder>;
  private readonly statusByCode: Record<string, number>;

  constructor(private readonly options: HotRoutesOptions) {
    this.record = httpRequestRecorder(options.metrics);
    this.statusByCode = { ...commonStatusByCode, ...options.statusByCode };
  }

  /** `template` as Express writes it (`/api/v1/contacts/:id`). */
  add(
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    template: string,
    handler: HotHandler,
    options: HotRouteOptions = {},
  ): this {
    const segments = template.split('/').map((segment) => (segment.startsWith(':') ? null : segment));
    this.routes.push({ method, segments, template, handler, ...options });
    return this;
  }

  /** The listener to serve: hot routes here, every other request to `fallback`. */
  listener(fallback: RequestListener): RequestListener {
    return (req, res) => {
      const started = process.hrtime.bigint();
      const match = this.match(req);
      if (match === undefined) {
        fallback(req, res);
        return;
      }
      void this.serve(match, req, res, started);
    };
  }

  private match(req: IncomingMessage): { route: HotRoute; params: string[]; identity: Identity } | undefined {
    const url = req.url ?? '';
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    // Encoded characters would need decoding to compare: rare enough to leave to Express.
    if (path.includes('%')) return undefined;
    const parts = path.split('/');
    for (const route of this.routes) {
      if (route.method !== req.method || route.segments.length !== parts.length) continue;
      const params = matchSegments(route.segments, parts);
      if (params === undefined) continue;
      const identity = verifyIdentity(
        headerOf(req, IDENTITY_HEADER),
        { method: route.method, path: url },
        this.options.signingSecret,
      );
      if (identity === undefined || !bodyIsPlain(req, identity, route.bodyLimitBytes)) return undefined;
      return { route, params, identity };
    }
    return undefined;
  }

  private async serve(
    match: { route: HotRoute; params: string[]; identity: Identity },
    req: IncomingMessage,
    res: ServerResponse,
    started: bigint,
  ): Promise<void> {
    const { route, params, identity } = match;
    res.once('close', () => this.record(route.method, route.template, res.statusCode, started));
    await inRequestFrame(this.options.service, req, res, async () => {
      let answer: JsonAnswer;
      try {
        const body =
          route.bodyLimitBytes === undefined
            ? undefined
            : await readJson(req, identity, route.bodyLimitBytes);
        answer = await route.handler({ req, params, identity, body });
      } catch (error) {
        if (error instanceof ClientGone) return;
        route.onError?.(error);
        answerFailure(res, req, error, this.statusByCode, this.options.logger);
        return;
      }
      for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
      sendJson(res, answer.status, answer.body);
    });
  }
}

function matchSegments(segments: (string | null)[], parts: string[]): string[] | undefined {
  const params: string[] = [];
  for (let index = 0; index < segments.length; index += 1) {
    const literal = segments[index];
    const part = parts[index]!;
    if (literal === null) {
      if (part === '') return undefined;
      params.push(part);
    } else if (literal !== part) {
      return undefined;
    }
  }
  return params;
}

const headerOf = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * One plain JSON body (UTF-8, no Content-Encoding, not chunked) of a declared length within `limit`:
 * the common case a fast path takes, leaving every other shape to the full parser.
 */
export function isPlainJsonBody(headers: IncomingHttpHeaders, limit: number): boolean {
  if (headers['transfer-encoding'] !== undefined) return false;
  const bytes = Number(headers['content-length']);
  return (
    Number.isInteger(bytes) &&
    bytes > 0 &&
    bytes <= limit &&
    (headers['content-encoding'] === undefined || headers['content-encoding'] === 'identity') &&
    PLAIN_JSON.test(headers['content-type'] ?? '')
  );
}

/** No body where the route takes none; one plain JSON body of declared length where it takes one. */
function bodyIsPlain(req: IncomingMessage, identity: Identity, limit: number | undefined): boolean {
  const { headers } = req;
  if (limit === undefined) {
    const length = headers['content-length'];
    return headers['transfer-encoding'] === undefined && (length === undefined || length === '0') && identity.bodyDigest === NO_BODY;
  }
  return identity.bodyDigest !== NO_BODY && isPlainJsonBody(headers, limit);
}

/** The body, checked against the digest the gateway signed, then parsed as Express's parser would. */
function readJson(req: IncomingMessage, identity: Identity, limit: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let ended = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.once('end', () => {
      ended = true;
      const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      if (size > limit)
        return reject(new AppError(CommonErrorCodes.PAYLOAD_TOO_LARGE, 'request body is too large'));
      if (bodyDigest(bytes) !== identity.bodyDigest)
        return reject(new AppError(CommonErrorCodes.UNAUTHORIZED, 'unauthorized'));
      try {
        resolve(parseJsonBytes(bytes));
      } catch (error) {
        reject(error);
      }
    });
    req.once('close', () => {
      if (!ended) reject(new ClientGone());
    });
  });
}
