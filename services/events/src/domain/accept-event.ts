import { randomUUID } from 'node:crypto';
import { BrokerUnavailableError, type MessageOf, type productEventReceivedV1 } from '@mailer/shared';
import type { AcceptedEvent, EventInput } from './event-input';
import { brokerUnavailable } from './events.errors';

export interface EventOrigin {
  accountId: number;
  requestId: string;
}

export type ProductEvent = MessageOf<typeof productEventReceivedV1>;

/** Publishes one event; resolves only once the broker confirmed the message that holds it. */
export type PublishEvent = (event: ProductEvent) => Promise<void>;

/**
 * Publishes the event and resolves only once the broker confirmed it: the caller may then say 202.
 * An unconfirmed publish is a 503, never an acknowledged-then-lost event.
 */
export async function acceptEvent(publish: PublishEvent, origin: EventOrigin, input: EventInput): Promise<AcceptedEvent> {
  const accepted: AcceptedEvent = {
    id: randomUUID(),
    event: input.event,
    email: input.email,
    received_at: new Date().toISOString(),
  };
  try {
    await publish({
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
