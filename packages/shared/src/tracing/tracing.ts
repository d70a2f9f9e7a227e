import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';

export { SpanKind } from '@opentelemetry/api';
export type { Attributes, Context, Span } from '@opentelemetry/api';

/** The attribute that names the service a span belongs to (all services may share one process in tests). */
export const SERVICE_ATTRIBUTE = 'mailer.service';

const TRACER_NAME = 'mailer';

/** Headers (HTTP or AMQP) the W3C propagator reads from and writes to. */
type Carrier = Record<string, unknown>;

const getter = {
  keys: (carrier: Carrier) => Object.keys(carrier),
  get: (carrier: Carrier, key: string) => {
    const value = carrier[key] ?? carrier[key.toLowerCase()];
    if (typeof value === 'string') return value;
    if (Buffer.isBuffer(value)) return value.toString('utf8');
    return Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;
  },
};

/**
 * Runs `fn` inside a new span (child of the active one), ends it when `fn` settles and marks it
 * failed when `fn` throws. Without a registered tracer provider the span is the API's no-op one.
 */
export async function withSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
  options: { kind?: SpanKind; parent?: Context } = {},
): Promise<T> {
  const parent = options.parent ?? context.active();
  const span = trace.getTracer(TRACER_NAME).startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error | undefined)?.message ?? String(error) });
    throw error;
  } finally {
    span.end();
  }
}

/** Starts a span the caller ends (request spans end on the response's `finish`). */
export function startSpan(name: string, attributes: Attributes, kind: SpanKind, parent: Context): Span {
  return trace.getTracer(TRACER_NAME).startSpan(name, { kind, attributes }, parent);
}

/** Writes the context's trace (`traceparent`, `tracestate`) into `headers`; nothing when there is none. */
export function injectTraceContext(headers: Record<string, unknown>, from: Context = context.active()): void {
  propagation.inject(from, headers);
}

/** The context a message or request's headers carry (the root context when they carry none). */
export function extractTraceContext(headers: Record<string, unknown> | undefined): Context {
  return headers ? propagation.extract(ROOT_CONTEXT, headers, getter) : ROOT_CONTEXT;
}

/** The active trace as one `traceparent` string, for storing beside work that continues later. */
export function currentTraceparent(): string | null {
  const headers: Record<string, string> = {};
  injectTraceContext(headers);
  return headers.traceparent ?? null;
}

/** The context a stored `traceparent` names (the root context when none was stored). */
export function contextFromTraceparent(traceparent: string | null | undefined): Context {
  return traceparent ? extractTraceContext({ traceparent }) : ROOT_CONTEXT;
}
