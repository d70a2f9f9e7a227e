import type { IncomingMessage, ServerResponse } from 'node:http';
import { context } from '@opentelemetry/api';
import { runWithLogContext } from '../logger/request-context';
import { requestSpanContext } from '../tracing/trace-requests';
import { requestIdFor } from './request-id';

/**
 * Runs `work` for a request answered without Express, framed as the Express chain frames one: the
 * request id (the caller's when sane, echoed back), the request's span and the log context.
 */
export function inRequestFrame(
  service: string,
  req: IncomingMessage,
  res: ServerResponse,
  work: () => Promise<void>,
): Promise<void> {
  const id = requestIdFor(req.headers['x-request-id']);
  req.headers['x-request-id'] = id;
  res.setHeader('X-Request-Id', id);
  const spanContext = requestSpanContext(service, req, res, (req.url ?? '').split('?')[0] ?? '');
  return runWithLogContext({ requestId: id }, () => context.with(spanContext, work));
}
