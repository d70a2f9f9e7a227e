import { AppError, CommonErrorCodes, counterOf, isDependencyUnavailable, METRICS, type Registry } from '@mailer/shared';
import { EventsErrorCodes } from '../../domain/events/events.errors';

export interface IngestMetrics {
  accepted(replayed: boolean): void;
  /** Counts why an event was refused. */
  refused(error: unknown): void;
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
  // Contacts' database down or not migrated, where the gateway upserts the events' contacts: a 503.
  if (isDependencyUnavailable(error)) return 'dependency_unavailable';
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 413) return 'too_large';
  // Unparseable JSON from the body parser is the client's fault; anything else is ours.
  return typeof status === 'number' && status >= 400 && status < 500 ? 'invalid' : 'error';
}

export function ingestMetrics(registry: Registry): IngestMetrics {
  const accepted = counterOf(registry, METRICS.eventsAccepted);
  const refused = counterOf(registry, METRICS.eventsRefused);
  return {
    accepted: (replayed) => accepted.inc({ replayed: String(replayed) }),
    refused: (error) => refused.inc({ reason: reasonOf(error) }),
  };
}
