import { contactCreatedV1, contactDeletedV1, contactsCreatedV1, contactUpdatedV1, GroupCommit, QUEUES, type Broker, type MessageOf, type Pool } from '@mailer/shared';
import { applyContactSnapshots, type SnapshotFact } from '../../data-access/contacts.repository';
import { applyContactFact, type ContactFact } from '../../domain/contacts/apply-contact-fact';

/**
 * automation.contact-facts: keeps the contacts projection (suppression, personalisation) current.
 * Contacts' relay publishes its facts in batches (a CSV import, a burst of sign-ups), several
 * creates in one `contacts.created.v1`: the snapshots handled while one statement is in flight go
 * together into the next.
 */
export function consumeContactFacts(broker: Broker, deps: { pool: Pool }): void {
  const snapshots = new GroupCommit<SnapshotFact>((facts) => applyContactSnapshots(deps.pool, facts));
  const factDeps = { pool: deps.pool, snapshots };
  broker.consume({
    queue: QUEUES.automationContactFacts.name,
    contracts: [contactCreatedV1, contactsCreatedV1, contactUpdatedV1, contactDeletedV1],
    prefetch: 32,
    handle: async (message) => {
      if (message.type !== contactsCreatedV1.type) return applyContactFact(factDeps, { type: message.type, payload: message.payload } as ContactFact);
      // Each fact as if it had come alone; the snapshots of the batch share the next statement.
      const { facts } = message.payload as MessageOf<typeof contactsCreatedV1>;
      await Promise.all(facts.map(({ fact }) => applyContactFact(factDeps, { type: 'contact.created.v1', payload: fact })));
    },
  });
}
