import { createPool, type Broker, type Pool } from '@mailer/shared';
import type { ContactsDatabaseOptions } from './database';
import type { EnrichedEvent } from './domain/upsert-event-contact';
import { PRODUCT_EVENT_CONTRACTS, upsertEventContacts, type ProductEventMessage } from './domain/upsert-event-contacts';

/** Where contacts' database is (it creates and migrates it there); the host of the upserts connects to it. */
export { contactsDatabaseUrl } from './database';
export { PRODUCT_EVENT_CONTRACTS, type EnrichedEvent, type ProductEventMessage };

export interface EventContactsOptions extends ContactsDatabaseOptions {
  /** Puts the event of a batch that failed on its own back in the queue, alone. */
  broker: Broker;
}

/**
 * Contacts' handling of the product events (`contacts.product-events`), for automation to run in
 * its own process: each event's contact upserted on contacts' database, in contacts' transaction
 * with contacts' inbox row and outbox facts, then the enriched event handed to `deliver`, where
 * automation enrols it without a second broker hop (docs/decisions.md, "Session 38"). The code, the
 * statements and the database are contacts' own; contacts keeps owning and migrating its tables,
 * and its relay publishes the facts these writes leave in its outbox. Before contacts has made its
 * database, an upsert fails as a dependency not ready (the message is retried in place).
 */
export class EventContacts {
  private constructor(
    private readonly pool: Pool,
    private readonly broker: Broker,
  ) {}

  static connect(options: EventContactsOptions): EventContacts {
    return new EventContacts(createPool(options.databaseUrl, options.logger, { max: options.poolSize }), options.broker);
  }

  /** Upserts the contacts of one message's events; resolves once each enriched event was delivered (or put back alone). */
  upsert(message: ProductEventMessage, deliver: (event: EnrichedEvent) => Promise<void>): Promise<void> {
    return upsertEventContacts({ pool: this.pool, broker: this.broker, deliver }, message);
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
