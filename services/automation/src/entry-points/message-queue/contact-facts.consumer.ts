import { contactCreatedV1, contactDeletedV1, contactUpdatedV1, GroupCommit, QUEUES, type Broker, type Pool } from '@mailer/shared';
import { applyContactSnapshots, type SnapshotFact } from '../../data-access/contacts.repository';
import { applyContactFact, type ContactFact } from '../../domain/contacts/apply-contact-fact';

/**
 * automation.contact-facts: keeps the contacts projection (suppression, personalisation) current.
 * Contacts' relay publishes its facts in batches (a CSV import, a burst of sign-ups): the
 * snapshots handled while one statement is in flight go together into the next.
 */
export function consumeContactFacts(broker: Broker, deps: { pool: Pool }): void {
  const snapshots = new GroupCommit<SnapshotFact>((facts) => applyContactSnapshots(deps.pool, facts));
  const factDeps = { pool: deps.pool, snapshots };
  broker.consume({
    queue: QUEUES.automationContactFacts.name,
    contracts: [contactCreatedV1, contactUpdatedV1, contactDeletedV1],
    prefetch: 32,
    handle: async (message) => applyContactFact(factDeps, { type: message.type, payload: message.payload } as ContactFact),
  });
}
