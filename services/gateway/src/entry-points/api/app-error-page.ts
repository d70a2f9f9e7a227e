import type { ErrorRequestHandler } from 'express';
import { AppError, commonStatusByCode } from '@mailer/shared';
import { gatewayStatusByCode } from '../../domain/gateway.errors';

const TITLES: Record<number, string> = {
  429: 'Too many requests',
  502: 'The account app failed',
  503: 'The account app is unavailable',
  504: 'The account app did not answer in time',
};

/**
 * Browsers on /app and /settings get a page, never raw JSON, when the gateway itself answers for
 * the app: the address limit (429, saying when to retry) or an app that cannot be reached.
 * The page uses the app's stylesheet; its words are fixed, so nothing here comes from the request.
 */
export const appErrorPage: ErrorRequestHandler = (error: unknown, req, res, next) => {
  if (res.headersSent || !(error instanceof AppError)) return next(error);
  const status = gatewayStatusByCode[error.code] ?? commonStatusByCode[error.code] ?? 500;
  const title = TITLES[status];
  if (!title) return next(error);
  const retry = error.headers['Retry-After'];
  const requestId = /^[A-Za-z0-9._:-]{1,128}$/.test(String(req.headers['x-request-id'])) ? String(req.headers['x-request-id']) : '';
  res.set(error.headers).status(status).type('html').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Mailer</title><link rel="stylesheet" href="/app/assets/style.css"></head>
<body><main id="main"><div class="card"><h1>${title}</h1>
<p>${retry ? `Try again in ${Number(retry) || 5} seconds.` : 'Try again in a moment.'}</p>
${requestId ? `<p class="hint">Request id: <code>${requestId}</code></p>` : ''}
<p><a href="/app">Back to the dashboard</a></p></div></main></body></html>`);
};
