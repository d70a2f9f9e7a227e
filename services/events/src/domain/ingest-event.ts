import { createHash } from 'node:crypto';
import { AppError, sleep, type EmailDomainValidator, type Logger } from '@mailer/shared';
import type { IdempotencyRepository } from '../data-access/idempotency.repository';
import type { AcceptedEvent, EventInput } from './event-input';
import { EventsErrorCodes } from './events.errors';
import { acceptEvent, type EventOrigin, type PublishEvent } from './accept-event';

export interface IngestDeps {
  /** Publishes an accepted event; resolves once the broker confirmed it. */
  publish: PublishEvent;
  /** The same verdict contacts gives before saving an address: refused here, nothing is accepted. */
  emailValidator: EmailDomainValidator;
  idempotency: IdempotencyRepository;
  logger: Logger;
}

export interface IngestResult {
  accepted: AcceptedEvent;
  /** True when this is the stored answer of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

/** How long a duplicate waits for the first request with its key to finish before it gets 409. */
const WAIT_FOR_FIRST_MS = 7000;

/** What an Idempotency-Key may look like (also shown in the OpenAPI document). */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** Key order must not make two equal bodies look different. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

const fingerprintOf = (input: EventInput) =>
  createHash('sha256')
    .update(JSON.stringify(canonical({ event: input.event, email: input.email, properties: input.properties ?? {} })))
    .digest('hex');

/**
 * Accepts one event. With an Idempotency-Key, the first request accepts it and its answer is kept
 * 24 h; retries (sequential or concurrent) get that answer and accept nothing new. When Redis is down
 * the event is still accepted, without the replay guarantee (automation's per-step dedupe still
 * keeps a retried event from sending an email twice).
 */
export async function ingestEvent(deps: IngestDeps, origin: EventOrigin, input: EventInput, idempotencyKey?: string): Promise<IngestResult> {
  // Before any idempotency record: a refused address leaves nothing behind to replay.
  await deps.emailValidator.validate(input.email);
  if (idempotencyKey === undefined) return { accepted: await acceptEvent(deps.publish, origin, input), replayed: false };
  if (!IDEMPOTENCY_KEY.test(idempotencyKey)) {
    throw new AppError(EventsErrorCodes.IDEMPOTENCY_KEY_INVALID, 'Idempotency-Key must be 1 to 255 printable ASCII characters');
  }
  const fingerprint = fingerprintOf(input);
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const reservation = await deps.idempotency.reserve(origin.accountId, idempotencyKey, fingerprint);
    if (reservation.kind === 'unavailable') {
      deps.logger.warn('accepting an event without idempotency: Redis is unreachable');
      return { accepted: await acceptEvent(deps.publish, origin, input), replayed: false };
    }
    if (reservation.kind === 'reserved') {
      try {
        const accepted = await acceptEvent(deps.publish, origin, input);
        await deps.idempotency.complete(origin.accountId, idempotencyKey, fingerprint, accepted);
        return { accepted, replayed: false };
      } catch (error) {
        await deps.idempotency.release(origin.accountId, idempotencyKey);
        throw error;
      }
    }
    const { record } = reservation;
    if (record.fingerprint !== fingerprint) {
      throw new AppError(EventsErrorCodes.IDEMPOTENCY_MISMATCH, 'Idempotency-Key was already used with a different request body');
    }
    if (record.state === 'done') return { accepted: record.response, replayed: true };
    if (Date.now() > deadline) {
      throw new AppError(EventsErrorCodes.IDEMPOTENCY_IN_PROGRESS, 'a request with this Idempotency-Key is still in progress').withHeaders({
        'Retry-After': '1',
      });
    }
    // Another request with this key is being accepted: wait for its answer (or for it to give up).
    await sleep(50);
  }
}
