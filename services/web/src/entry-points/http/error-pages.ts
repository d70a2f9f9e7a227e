import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { AppError, CommonErrorCodes, commonStatusByCode, isDependencyUnavailable } from '@mailer/shared';
import { html } from '../pages/html';
import { messagePage } from '../pages/layout';
import { requestIdOf, signedInOf, viewerOf } from './session.middleware';

interface ParserError {
  type?: string;
  status?: number;
}

/** What a failure means for a page: its status, title and words (never a stack or internal message). */
function describe(error: unknown): { status: number; title: string; message: string; headers: Record<string, string> } {
  const parser = error as ParserError | null;
  if (parser?.type === 'entity.too.large') return { status: 413, title: 'Too large', message: 'What you sent is larger than this form accepts.', headers: {} };
  if (typeof parser?.type === 'string' && typeof parser.status === 'number' && parser.status < 500) {
    return { status: 400, title: 'Bad request', message: 'The form could not be read. Go back and try again.', headers: {} };
  }
  if (isDependencyUnavailable(error)) {
    return { status: 503, title: 'Temporarily unavailable', message: 'A part of Mailer is not answering. Try again in a few seconds.', headers: { 'Retry-After': '5' } };
  }
  if (!(error instanceof AppError)) return { status: 500, title: 'Something went wrong', message: 'We could not show this page.', headers: {} };
  const status = commonStatusByCode[error.code] ?? 500;
  switch (error.code) {
    case CommonErrorCodes.NOT_FOUND:
      return { status, title: 'Not found', message: 'There is no such page in your account.', headers: error.headers };
    case CommonErrorCodes.UNAVAILABLE:
      return { status, title: 'Temporarily unavailable', message: 'A part of Mailer is not answering. Try again in a few seconds.', headers: error.headers };
    case CommonErrorCodes.RATE_LIMITED:
      return { status, title: 'Too many requests', message: error.message, headers: error.headers };
    case CommonErrorCodes.BAD_REQUEST:
    case CommonErrorCodes.VALIDATION:
      return { status: 400, title: 'Bad request', message: error.message, headers: error.headers };
    default:
      return status < 500
        ? { status, title: 'Request refused', message: error.message, headers: error.headers }
        : { status: 500, title: 'Something went wrong', message: 'We could not show this page.', headers: {} };
  }
}

/**
 * Every failure under /app is an HTML page in the layout: 404, 429 saying when to retry, 503, and
 * 500 with the request id an operator can find in the logs. Never raw JSON.
 */
export function errorPages(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const { status, title, message, headers } = describe(error);
    if (status >= 500) logger[status === 503 ? 'warn' : 'error']({ err: error, method: req.method, path: req.path }, 'page failed');
    const requestId = requestIdOf(req);
    const retry = headers['Retry-After'];
    const extra =
      status === 500
        ? html`<p>If it keeps happening, give this request id to your operator: <code>${requestId}</code></p>`
        : status === 429 || status === 503
          ? html`<p>Try again in ${retry ?? 'a few'} seconds.</p>`
          : undefined;
    res.set(headers).status(status).type('html').send(messagePage({ title, message, viewer: signedInOf(res) ? viewerOf(res) : undefined, extra }));
  };
}

export const notFoundPage: RequestHandler = (_req, res) => {
  res.status(404).type('html').send(messagePage({ title: 'Not found', message: 'There is no such page.', viewer: signedInOf(res) ? viewerOf(res) : undefined }));
};
