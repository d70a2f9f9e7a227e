import { contactCreatedV1, contactDeletedV1, contactUpdatedV1, QUEUES, type Broker, type Pool } from '@mailer/shared';
import { applyContactFact, type ContactFact } from '../../domain/contacts/apply-contact-fact';

/** automation.contact-facts: keeps the contacts projection (suppression, personalisation) current. */
export function consumeContactFacts(broker: Broker, deps: { pool: Pool }): void {
  broker.consume({
    queue: QUEUES.automationContactFacts.name,
    contracts: [contactCreatedV1, contactUpdatedV1, contactDeletedV1],
    prefetch: 32,
    handle: async (message) => applyContactFact(deps.pool, { type: message.type, payload: message.payload } as ContactFact),
  });
}
