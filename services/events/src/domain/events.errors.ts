import { AppError } from '@mailer/shared';

export const EventsErrorCodes = {
  BROKER_UNAVAILABLE: 'EVENTS.BROKER_UNAVAILABLE',
  IDEMPOTENCY_IN_PROGRESS: 'EVENTS.IDEMPOTENCY_IN_PROGRESS',
  IDEMPOTENCY_MISMATCH: 'EVENTS.IDEMPOTENCY_MISMATCH',
  IDEMPOTENCY_KEY_INVALID: 'EVENTS.IDEMPOTENCY_KEY_INVALID',
} as const;

export const eventsStatusByCode: Record<string, number> = {
  [EventsErrorCodes.BROKER_UNAVAILABLE]: 503,
  [EventsErrorCodes.IDEMPOTENCY_IN_PROGRESS]: 409,
  [EventsErrorCodes.IDEMPOTENCY_MISMATCH]: 422,
  [EventsErrorCodes.IDEMPOTENCY_KEY_INVALID]: 400,
};

/** The event was not confirmed by the broker, so it is not stored: the client must retry. */
export const brokerUnavailable = () =>
  new AppError(EventsErrorCodes.BROKER_UNAVAILABLE, 'event store temporarily unavailable; retry later').withHeaders({
    'Retry-After': '5',
  });
