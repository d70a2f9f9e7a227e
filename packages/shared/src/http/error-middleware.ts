import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { AppError, CommonErrorCodes, commonStatusByCode } from '../errors/app-error';
import { isDependencyUnavailable } from '../errors/unavailable';
import { BODY_SIGNATURE_MISMATCH } from './json-body';
import { sendJson } from './send-json';

interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

/** Errors thrown by express's body parser carry a `type`; map the ones a client causes to 4xx. */
function fromBodyParser(error: unknown): AppError | undefined {
  const type = (error as BodyParserError | null)?.type;
  if (type === BODY_SIGNATURE_MISMATCH) {
    return new AppError(CommonErrorCodes.UNAUTHORIZED, 'unauthorized');
  }
  if (type === 'entity.too.large') {
    return new AppError(CommonErrorCodes.PAYLOAD_TOO_LARGE, 'request body is too large');
  }
  if (type === 'charset.unsupported') {
    return new AppError(CommonErrorCodes.UNSUPPORTED_MEDIA_TYPE, 'request body must be JSON in UTF-8');
  }
  if (type === 'entity.parse.failed' || type === 'encoding.unsupported') {
    return new AppError(CommonErrorCodes.BAD_REQUEST, 'request body is not valid JSON');
  }
  // A body that cannot be decoded (a broken gzip stream) reaches us as a typeless 400 from the
  // parser (`expose` marks the client's fault): still the client's fault, not a 500.
  const { status, expose } = (error as BodyParserError | null) ?? {};
  if ((type || expose === true) && typeof status === 'number' && status >= 400 && status < 500) {
    return new AppError(CommonErrorCodes.BAD_REQUEST, 'request body could not be read');
  }
  return undefined;
}

/** A database or cache that is down is the server's problem, but a passing one: 503 and retry. */
function fromDependency(error: unknown): AppError | undefined {
  if (!isDependencyUnavailable(error)) return undefined;
  return new AppError(CommonErrorCodes.UNAVAILABLE, 'service temporarily unavailable').withHeaders({ 'Retry-After': '5' });
}

/** What a failure is answered with: status, extra headers and JSON body. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/**
 * The one place a failure becomes an answer. `table` maps error codes to statuses (the common
 * table plus a service's own). 422 answers `{ errors: [...] }` (plus details); every other error
 * `{ error }`. A 5xx never carries a stack or an internal message.
 */
export function errorAnswer(error: unknown, table: Record<string, number>): ErrorAnswer {
  const known = error instanceof AppError ? error : (fromBodyParser(error) ?? fromDependency(error));
  const status = known ? (table[known.code] ?? 500) : 500;
  if (!known || status === 500) return { status: 500, headers: known?.headers ?? {}, body: { error: 'internal server error' } };
  if (status === 422) return { status, headers: known.headers, body: { errors: known.messages, ...known.details } };
  return { status, headers: known.headers, body: { error: known.message, ...known.details } };
}

/** A 5xx is the server's to report: 503 (a dependency passing out) as a warning, the rest as errors. */
export function logFailedRequest(logger: Logger, status: number, error: unknown, method: string, path: string): void {
  if (status >= 500) logger[status === 503 ? 'warn' : 'error']({ err: error, method, path }, 'request failed');
}

/** A failure answered without Express, as the error middleware answers it (logged when a 5xx). */
export function answerFailure(res: ServerResponse, req: IncomingMessage, error: unknown, table: Record<string, number>, logger: Logger): void {
  const failure = errorAnswer(error, table);
  logFailedRequest(logger, failure.status, error, req.method ?? '', (req.url ?? '').split('?')[0] ?? '');
  for (const [name, value] of Object.entries(failure.headers)) res.setHeader(name, value);
  sendJson(res, failure.status, failure.body);
}

/** Express's end of `errorAnswer`; `statusByCode` adds a service's own codes to the common table. */
export function errorMiddleware(logger: Logger, statusByCode: Record<string, number> = {}): ErrorRequestHandler {
  const table = { ...commonStatusByCode, ...statusByCode };
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const answer = errorAnswer(error, table);
    logFailedRequest(logger, answer.status, error, req.method, req.path);
    res.set(answer.headers).status(answer.status).json(answer.body);
  };
}

/** Unknown routes: 404 JSON. */
export function notFoundHandler(): RequestHandler {
  return (_req, res) => {
    res.status(404).json({ error: 'route not found' });
  };
}

/** For routes that exist but refuse a method: 405 with `Allow`. */
export function methodNotAllowed(allowed: string[]): RequestHandler {
  return (_req, _res, next) => {
    next(
      new AppError(CommonErrorCodes.METHOD_NOT_ALLOWED, 'method not allowed').withHeaders({
        Allow: allowed.join(', '),
      }),
    );
  };
}
