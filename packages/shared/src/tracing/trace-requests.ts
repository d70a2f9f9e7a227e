import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { context, SpanStatusCode, trace, type Context } from '@opentelemetry/api';
import { extractTraceContext, SERVICE_ATTRIBUTE, SpanKind, startSpan } from './tracing';

/** Probes and scrapes would drown the traces that matter. */
const UNTRACED = /^\/(healthz|readyz|metrics)\b/;

/**
 * Starts the SERVER span of one request, child of the caller's `traceparent` when it sent one, and
 * ends it with the response. Returns the context the rest of the request runs in, so log lines
 * carry its trace id and outgoing calls continue the trace. With no tracer provider registered the
 * span is the API's no-op one: nearly free.
 */
export function requestSpanContext(service: string, req: IncomingMessage, res: ServerResponse, path: string): Context {
  const parent = extractTraceContext(req.headers);
  const span = startSpan(
    `${req.method} ${path}`,
    { [SERVICE_ATTRIBUTE]: service, 'http.request.method': req.method ?? '', 'url.path': path },
    SpanKind.SERVER,
    parent,
  );
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    span.setAttribute('http.response.status_code', res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  res.once('finish', end);
  res.once('close', end);
  return trace.setSpan(parent, span);
}

/** Express's end of `requestSpanContext`: the rest of the chain runs inside the request's span. */
export function traceRequests(service: string): RequestHandler {
  return (req, res, next) => {
    if (UNTRACED.test(req.path)) return next();
    context.with(requestSpanContext(service, req, res, `${req.baseUrl}${req.path}`), next);
  };
}
