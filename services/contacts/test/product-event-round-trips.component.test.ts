import { randomUUID } from 'node:crypto';
import { countingPool } from '@mailer/testing';
import { saveDoubleOptIn } from '../src/data-access/double-opt-in.repository';
import { suppressAddress } from '../src/data-access/suppressions.repository';
import { publishEnrichedEvent } from '../src/domain/publish-enriched-event';
import { upsertEventContact } from '../src/domain/upsert-event-contact';
import {
  newAccountId,
  startContactsForTest,
  uniqueEmail,
  type ContactsTestService,
} from './support/contacts-test-service';

let service: ContactsTestService;
beforeAll(async () => {
  service = await startContactsForTest();
});
afterAll(async () => {
  await service.stop();
});

const productEvent = (account: number, email: string, properties: Record<string, unknown> = {}) => ({
  event_id: randomUUID(),
  account_id: account,
  event: 'signup',
  email,
  properties,
  received_at: new Date().toISOString(),
});

/** Handles the event as the consumer does (same message key twice is a redelivery); resolves to the statements it sent. */
async function statementsToHandle(
  event: ReturnType<typeof productEvent>,
  messageKey = `test:${event.event_id}`,
) {
  const counting = countingPool(service.pool);
  await upsertEventContact({ pool: counting.pool, deliver: (enriched) => publishEnrichedEvent(service.broker, enriched) }, messageKey, event);
  return counting.statements();
}

async function storedContact(account: number, email: string) {
  const { rows } = await service.pool.query<{
    id: number;
    first_name: string | null;
    last_name: string | null;
    subscribed: boolean;
    source: string | null;
    confirmation: string | null;
  }>(
    'SELECT id, first_name, last_name, subscribed, source, confirmation FROM contacts WHERE account_id = $1 AND lower(email) = lower($2)',
    [account, email],
  );
  return rows;
}

async function factsAbout(contactId: number) {
  const { rows } = await service.pool.query<{
    message_type: string;
    payload: { contact?: Record<string, unknown>; changed?: string[] };
  }>(`SELECT message_type, payload FROM outbox WHERE (payload->'contact'->>'id')::bigint = $1 ORDER BY id`, [
    contactId,
  ]);
  return rows;
}

/** The last identity value handed out for contacts: an INSERT that finds the address taken still uses one. */
async function lastContactId(): Promise<number> {
  const { rows } = await service.pool.query<{ last_value: number }>('SELECT last_value FROM contacts_id_seq');
  return rows[0]!.last_value;
}

describe('a product event in round trips', () => {
  it('for a new address, creates the contact with its inbox row and fact in one statement; a redelivery is one statement that changes nothing', async () => {
    const account = newAccountId();
    const email = uniqueEmail();
    const event = productEvent(account, email, { first_name: 'Nia' });
    expect(await statementsToHandle(event)).toBe(1);
    const [contact] = await storedContact(account, email);
    expect(contact).toMatchObject({
      first_name: 'Nia',
      last_name: null,
      subscribed: true,
      source: 'event',
      confirmation: null,
    });
    expect(await factsAbout(contact!.id)).toEqual([
      {
        message_type: 'contact.created.v1',
        payload: expect.objectContaining({
          contact: expect.objectContaining({ id: contact!.id, suppression: null }),
        }),
      },
    ]);

    expect(await statementsToHandle(event)).toBe(1);
    expect(await storedContact(account, email)).toEqual([contact]);
    expect(await factsAbout(contact!.id)).toHaveLength(1);
  });

  it('for a suppressed new address, creates the contact unsubscribed in one statement, its fact naming the suppression', async () => {
    const account = newAccountId();
    const email = uniqueEmail();
    await suppressAddress(service.pool, account, email, 'bounced', 'smtp_bounce');
    expect(await statementsToHandle(productEvent(account, email.toUpperCase()))).toBe(1);
    const [contact] = await storedContact(account, email);
    expect(contact).toMatchObject({ subscribed: false, source: 'event' });
    expect((await factsAbout(contact!.id))[0]!.payload.contact).toMatchObject({
      subscribed: false,
      suppression: 'bounced',
    });
  });

  it('for an existing contact the event leaves as it is, reads it in one statement, writing no contact, fact or identity value', async () => {
    const account = newAccountId();
    const created = (
      await service.api.create(account, { email: uniqueEmail(), first_name: 'Ann', tags: ['beta'] })
    ).body.data;
    const idsBefore = await lastContactId();
    expect(
      await statementsToHandle(productEvent(account, created.email, { first_name: 'Other', plan: 'pro' })),
    ).toBe(1);
    expect(await lastContactId()).toBe(idsBefore);
    expect((await service.api.get(account, created.id)).body.data).toEqual(created);
    expect((await factsAbout(created.id)).map((fact) => fact.message_type)).toEqual(['contact.created.v1']);
  });

  it('for an event that fills in a missing name, takes the general path: the name is filled and announced', async () => {
    const account = newAccountId();
    const created = (await service.api.create(account, { email: uniqueEmail(), first_name: 'Kept' })).body
      .data;
    expect(
      await statementsToHandle(
        productEvent(account, created.email, { first_name: 'Ignored', last_name: 'Filled' }),
      ),
    ).toBeGreaterThan(1);
    expect(await storedContact(account, created.email)).toEqual([
      expect.objectContaining({ first_name: 'Kept', last_name: 'Filled' }),
    ]);
    expect((await factsAbout(created.id)).map((fact) => [fact.message_type, fact.payload.changed])).toEqual([
      ['contact.created.v1', undefined],
      ['contact.updated.v1', ['last_name']],
    ]);
  });

  it('for an account with double opt-in, creates the contact pending through the general path; its next event is one statement', async () => {
    const account = newAccountId();
    await saveDoubleOptIn(service.pool, account, true);
    const email = uniqueEmail();
    await statementsToHandle(productEvent(account, email, { first_name: 'Pia' }));
    const [contact] = await storedContact(account, email);
    expect(contact).toMatchObject({
      first_name: 'Pia',
      subscribed: false,
      confirmation: 'pending',
      source: 'event',
    });
    const facts = await factsAbout(contact!.id);
    expect(facts.map((fact) => fact.message_type)).toEqual([
      'contact.created.v1',
      'contact.confirmation_requested.v1',
    ]);
    expect(facts[0]!.payload.contact).toMatchObject({ subscribed: false, pending_confirmation: true });

    expect(await statementsToHandle(productEvent(account, email, { first_name: 'Pia' }))).toBe(1);
    expect(await factsAbout(contact!.id)).toHaveLength(2);
  });
});
