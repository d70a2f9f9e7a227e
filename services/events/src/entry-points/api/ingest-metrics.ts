import type { ErrorRequestHandler } from 'express';
import { AppError, CommonErrorCodes, counterOf, METRICS, type Registry } from '@mailer/shared';
import { EventsErrorCodes } from '../../domain/events.errors';

export interface IngestMetrics {
  accepted(replayed: boolean): void;
  /** Counts why an event was refused. */
  refused(error: unknown): void;
  /** An error middleware: counts why a posted event was refused, then passes the error on. */
  refusals: ErrorRequestHandler;
}

/** The refusal reason a metrics label carries; the client sees the full answer. */
function reasonOf(error: unknown): string {
  if (error instanceof AppError) {
    switch (error.code) {
      case EventsErrorCodes.BROKER_UNAVAILABLE:
        return 'broker_unavailable';
      case EventsErrorCodes.IDEMPOTENCY_MISMATCH:
      case EventsErrorCodes.IDEMPOTENCY_IN_PROGRESS:
        return 'idempotency_conflict';
      case CommonErrorCodes.PAYLOAD_TOO_LARGE:
        return 'too_large';
      case CommonErrorCodes.UNAUTHORIZED:
        return 'unauthenticated';
      default:
        return 'invalid';
    }
  }
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 413) return 'too_large';
  // Unparseable JSON from the body parser is the client's fault; anything else is ours.
  return typeof status === 'number' && status >= 400 && status < 500 ? 'invalid' : 'error';
}

export function ingestMetrics(registry: Registry): IngestMetrics {
  const accepted = counterOf(registry, METRICS.eventsAccepted);
  const refused = counterOf(registry, METRICS.eventsRefused);
  const countRefusal = (error: unknown) => refused.inc({ reason: reasonOf(error) });
  return {
    accepted: (replayed) => accepted.inc({ replayed: String(replayed) }),
    refused: countRefusal,
    refusals: (error, req, _res, next) => {
      // Another method is a 405 for the request, not a refused event.
      if (req.method === 'POST') countRefusal(error);
      next(error);
    },
  };
}
