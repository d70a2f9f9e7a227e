import { trace } from '@opentelemetry/api';
import pino, { type Logger, type DestinationStream } from 'pino';
import { logContext } from './request-context';

export type { Logger } from 'pino';

/** Paths that may hold a secret; pino replaces them before a line is written. */
const REDACTED_PATHS = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'request.headers.authorization',
  '*.authorization',
  'password',
  '*.password',
  'secret',
  '*.secret',
  'apiKey',
  '*.apiKey',
];

/**
 * The service logger: JSON lines with the service name, and the request id, message id and
 * trace id of the work in progress (from AsyncLocalStorage), so one request can be followed.
 */
export function createLogger(
  service: string,
  options: { level?: string; destination?: DestinationStream } = {},
): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { service },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin() {
        const context = logContext.getStore() ?? {};
        const span = trace.getActiveSpan();
        const traceId = span?.spanContext().traceId;
        return traceId ? { ...context, trace_id: traceId } : { ...context };
      },
    },
    options.destination,
  );
}
