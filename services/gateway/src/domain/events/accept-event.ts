import { randomUUID } from 'node:crypto';
import { BrokerUnavailableError, type MessageOf, type productEventReceivedV1 } from '@mailer/shared';
import type { AcceptedEvent, EventInput } from './event-input';
import { brokerUnavailable } from './events.errors';

export interface EventOrigin {
  accountId: number;
  requestId: string;
}

export type ProductEvent = MessageOf<typeof productEventReceivedV1>;

/**
 * Makes an event durable; resolves only once it is. Queued for the service that upserts its
 * contact (`queuedEvents`: the broker's confirm), or its contact upserted here and the event
 * published enriched for the workflows it triggers (contacts' `EventContacts.accept`: Postgres's
 * commit, then the broker's confirm). Rejects when it could not be made so.
 */
export type AcceptEvent = (event: ProductEvent) => Promise<void>;

/**
 * Accepts the event and resolves only once it is durable: the caller may then say 202. A failure
 * is a 503 (the broker's, or a database's through the error table), never an acknowledged-then-lost
 * event.
 */
export async function acceptEvent(accept: AcceptEvent, origin: EventOrigin, input: EventInput): Promise<AcceptedEvent> {
  const accepted: AcceptedEvent = {
    id: randomUUID(),
    event: input.event,
    email: input.email,
    received_at: new Date().toISOString(),
  };
  try {
    await accept({
      event_id: accepted.id,
      account_id: origin.accountId,
      event: accepted.event,
      email: accepted.email,
      properties: input.properties ?? {},
      received_at: accepted.received_at,
      request_id: origin.requestId,
    });
  } catch (error) {
    if (error instanceof BrokerUnavailableError) throw brokerUnavailable();
    throw error;
  }
  return accepted;
}
