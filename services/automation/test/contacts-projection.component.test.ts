import { randomUUID } from 'node:crypto';
import { contactCreatedV1, contactDeletedV1, contactsCreatedV1, contactUpdatedV1 } from '@mailer/shared';
import { waitFor } from '@mailer/testing';
import { applyContactSnapshots } from '../src/data-access/contacts.repository';
import { countAudience } from '../src/data-access/campaign-deliveries.repository';
import { newAccountId, newContact, startAutomationHarness, type AutomationHarness } from './support/automation-harness';

describe('the contacts projection: facts applied in batches, campaign audiences over it', () => {
  let harness: AutomationHarness;
  beforeAll(async () => {
    harness = await startAutomationHarness('contacts_projection');
  });
  afterAll(async () => harness.stop());

  it('a campaign audience matches tags case-insensitively, any or all, and only subscribed, unbounced, unsuppressed contacts', async () => {
    const account = newAccountId();
    const other = newAccountId();
    const now = new Date().toISOString();
    const contacts = [
      newContact({ tags: ['News'] }),
      newContact({ tags: ['news', 'VIP'] }),
      newContact({ tags: ['vip'] }),
      newContact({ tags: [] }),
      newContact({ tags: ['NEWS'], subscribed: false }),
      newContact({ tags: ['news'], bounced: true }),
      newContact({ tags: ['news'], suppression: 'complained' }),
    ];
    await applyContactSnapshots(harness.pool, [
      ...contacts.map((contact) => ({ accountId: account, contact, factAt: now })),
      { accountId: other, contact: newContact({ tags: ['news', 'vip'] }), factAt: now },
    ]);

    const count = (tags: string[], match: 'any' | 'all') => countAudience(harness.pool, account, { tags, match });
    expect(await count([], 'any')).toBe(4);
    expect(await count(['NeWs'], 'any')).toBe(2);
    expect(await count(['news', 'vip'], 'any')).toBe(3);
    expect(await count(['news', 'vip'], 'all')).toBe(1);
    expect(await count(['news', 'nobody'], 'all')).toBe(0);
  });

  it('one statement of several snapshots of one contact keeps the newest (the later one among equals)', async () => {
    const account = newAccountId();
    const contact = newContact({ first_name: 'First' });
    const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)).toISOString();
    await applyContactSnapshots(harness.pool, [
      { accountId: account, contact, factAt: at(0) },
      { accountId: account, contact: { ...contact, first_name: 'Newest' }, factAt: at(2) },
      { accountId: account, contact: { ...contact, first_name: 'Older' }, factAt: at(1) },
      { accountId: account, contact: { ...contact, first_name: 'Tied, later' }, factAt: at(2) },
    ]);
    const name = async () => (await harness.pool.query<{ first_name: string }>('SELECT first_name FROM contacts WHERE account_id = $1', [account])).rows;
    expect(await name()).toEqual([{ first_name: 'Tied, later' }]);
    await applyContactSnapshots(harness.pool, [{ accountId: account, contact: { ...contact, first_name: 'Stale' }, factAt: at(1) }]);
    expect(await name()).toEqual([{ first_name: 'Tied, later' }]);
  });

  it('a burst of facts, several about one contact and out of order, leaves each contact as its newest fact says', async () => {
    const account = newAccountId();
    const base = Date.now();
    const at = (seconds: number) => new Date(base + seconds * 1000).toISOString();
    const many = Array.from({ length: 40 }, (_, index) => newContact({ first_name: `Reader${index}` }));
    const twice = newContact({ first_name: 'First' });
    const gone = newContact({ first_name: 'Gone' });
    await Promise.all([
      ...many.map((contact) => harness.publish(contactCreatedV1, { account_id: account, contact, occurred_at: at(0) })),
      harness.publish(contactCreatedV1, { account_id: account, contact: twice, occurred_at: at(0) }),
      harness.publish(contactUpdatedV1, { account_id: account, contact: { ...twice, first_name: 'Newest', tags: ['vip'] }, changed: ['first_name', 'tags'], occurred_at: at(2) }),
      harness.publish(contactUpdatedV1, { account_id: account, contact: { ...twice, first_name: 'Older' }, changed: ['first_name'], occurred_at: at(1) }),
      harness.publish(contactCreatedV1, { account_id: account, contact: gone, occurred_at: at(0) }),
      harness.publish(contactDeletedV1, { account_id: account, contact_id: gone.id, email: gone.email, occurred_at: at(1) }),
    ]);
    const projected = async () =>
      (await harness.pool.query<{ contact_id: string; first_name: string; tags: string[]; deleted: boolean }>(
        'SELECT contact_id, first_name, tags, deleted FROM contacts WHERE account_id = $1',
        [account],
      )).rows;
    const rows = await waitFor(async () => {
      const current = await projected();
      const latest = current.find((row) => Number(row.contact_id) === twice.id);
      const deleted = current.find((row) => Number(row.contact_id) === gone.id);
      return current.length === many.length + 2 && latest?.first_name === 'Newest' && deleted?.deleted ? current : undefined;
    });
    // Settled: the older update, applied last or in the same batch, changed nothing.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await projected()).find((row) => Number(row.contact_id) === twice.id)).toMatchObject({ first_name: 'Newest', tags: ['vip'] });
    const names = new Map(rows.map((row) => [Number(row.contact_id), row.first_name]));
    for (const contact of many) expect(names.get(contact.id)).toBe(contact.first_name);
  });

  it('a contacts.created.v1 batch projects each of its contacts, as if each had come alone', async () => {
    const account = newAccountId();
    const contacts = Array.from({ length: 5 }, (_, index) => newContact({ first_name: `Batched${index}` }));
    const occurred_at = new Date().toISOString();
    const facts = contacts.map((contact, index) => ({ id: `fact-${index}`, fact: { account_id: account, contact, occurred_at } }));
    // As contacts' relay publishes it: under the routing key of a single create.
    await harness.instances[0]!.broker.publish(contactsCreatedV1, { facts }, { messageId: randomUUID(), routingKey: contactCreatedV1.type });
    const rows = await waitFor(async () => {
      const { rows: current } = await harness.pool.query<{ contact_id: string; first_name: string }>('SELECT contact_id, first_name FROM contacts WHERE account_id = $1', [account]);
      return current.length === contacts.length ? current : undefined;
    }, { what: 'the batch projected' });
    expect(new Map(rows.map((row) => [Number(row.contact_id), row.first_name]))).toEqual(new Map(contacts.map((contact) => [contact.id, contact.first_name])));
  });
});
