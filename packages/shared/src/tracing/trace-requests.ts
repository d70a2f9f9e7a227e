import type { RequestHandler } from 'express';
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { extractTraceContext, SERVICE_ATTRIBUTE, SpanKind, startSpan } from './tracing';

/** Probes and scrapes would drown the traces that matter. */
const UNTRACED = /^\/(healthz|readyz|metrics)\b/;

/**
 * A SERVER span per request, child of the caller's `traceparent` when it sent one; the rest of the
 * request runs inside it, so log lines carry its trace id and outgoing calls continue the trace.
 * With no tracer provider registered the span is the API's no-op one: nearly free.
 */
export function traceRequests(service: string): RequestHandler {
  return (req, res, next) => {
    if (UNTRACED.test(req.path)) return next();
    const parent = extractTraceContext(req.headers);
    const span = startSpan(`${req.method} ${req.baseUrl}${req.path}`, {
      [SERVICE_ATTRIBUTE]: service,
      'http.request.method': req.method,
      'url.path': req.path,
    }, SpanKind.SERVER, parent);
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
    context.with(trace.setSpan(parent, span), next);
  };
}
