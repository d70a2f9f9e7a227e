import { createPool, type Broker, type Pool } from '@mailer/shared';
import type { ContactsDatabaseOptions } from './database';
import { publishEnrichedEvent } from './domain/publish-enriched-event';
import type { EnrichedEvent, ProductEvent } from './domain/upsert-event-contact';
import { PRODUCT_EVENT_CONTRACTS, upsertAcceptedEvent, upsertEventContacts, type ProductEventMessage } from './domain/upsert-event-contacts';

/** Where contacts' database is (it creates and migrates it there); the host of the upserts connects to it. */
export { contactsDatabaseUrl } from './database';
export { PRODUCT_EVENT_CONTRACTS, type EnrichedEvent, type ProductEventMessage };

export interface EventContactsOptions extends ContactsDatabaseOptions {
  /** Puts the event of a batch that failed on its own back in the queue, alone; publishes the accepted events enriched. */
  broker: Broker;
  /**
   * What an accepted event is handed to once its contact is committed, instead of its enriched
   * publish: the gateway's in-process enrolment (docs/decisions.md, "Session 42").
   */
  deliverAccepted?: ((enriched: EnrichedEvent) => Promise<void>) | undefined;
}

/**
 * Contacts' handling of the product events, for another service to run in its own process: each
 * event's contact upserted on contacts' database, in contacts' transaction with contacts' inbox row
 * and outbox facts, then the enriched event delivered. Two hosts (docs/decisions.md, "Session 38"
 * and "Session 39"): automation, consuming `contacts.product-events` and enrolling the enriched
 * event without a second broker hop (`upsert`); the gateway, upserting an event before its 202 and
 * enrolling it with automation's code ("Session 42") or publishing it enriched for the workflows
 * bound to its trigger (`accept`). The code, the
 * statements and the database are contacts' own; contacts keeps owning and migrating its tables,
 * and its relay publishes the facts these writes leave in its outbox. Before contacts has made its
 * database, an upsert fails as a dependency not ready (a message is retried in place, a request is a 503).
 */
export class EventContacts {
  /** Where an accepted event goes enriched (published, or the host's `deliverAccepted`): made once, not per request. */
  private readonly deliverAccepted: (enriched: EnrichedEvent) => Promise<void>;

  private constructor(
    private readonly pool: Pool,
    private readonly broker: Broker,
    deliverAccepted: ((enriched: EnrichedEvent) => Promise<void>) | undefined,
  ) {
    this.deliverAccepted = deliverAccepted ?? ((enriched) => publishEnrichedEvent(broker, enriched));
  }

  static connect(options: EventContactsOptions): EventContacts {
    // Its statements are the events' batches, which Postgres would otherwise plan again at each run
    // (a custom plan each time: 2.7x the database's time per event, measured).
    const pool = createPool(options.databaseUrl, options.logger, { max: options.poolSize, genericPlans: true });
    return new EventContacts(pool, options.broker, options.deliverAccepted);
  }

  /** Upserts the contacts of one message's events; resolves once each enriched event was delivered (or put back alone). */
  upsert(message: ProductEventMessage, deliver: (event: EnrichedEvent) => Promise<void>): Promise<void> {
    return upsertEventContacts({ pool: this.pool, broker: this.broker, deliver }, message);
  }

  /**
   * Upserts the contact of one event being accepted and, when `mayTrigger` says a workflow may
   * listen, delivers the event enriched: to `deliverAccepted` (the gateway's enrolment), or
   * published, routed by its trigger. Resolves once the contact is committed and the delivery is
   * done (the enrolment's commit, or the broker's confirm of a message no queue takes when no
   * enabled workflow triggers on the event). `mayTrigger` must not reject; its answer is awaited only
   * after the commit, so whatever looks it up runs beside the statement. The events of the
   * requests in flight share their statement and their messages.
   */
  accept(event: ProductEvent, mayTrigger: Promise<boolean>): Promise<void> {
    const deliver = async (enriched: EnrichedEvent) => {
      if (await mayTrigger) await this.deliverAccepted(enriched);
    };
    return upsertAcceptedEvent({ pool: this.pool, deliver }, event);
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
