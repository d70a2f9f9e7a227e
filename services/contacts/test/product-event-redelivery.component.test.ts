import { randomUUID } from 'node:crypto';
import { productEventReceivedV1 } from '@mailer/shared';
import { waitFor } from '@mailer/testing';
import { upsertEventContacts } from '../src/domain/upsert-event-contacts';
import { contactsWithEnrichedProbe, type BrokerProbe } from './support/contacts-with-enriched-probe';
import { newAccountId, uniqueEmail, type ContactsTestService } from './support/contacts-test-service';

let service: ContactsTestService;
let probe: BrokerProbe;
contactsWithEnrichedProbe((started, watching) => {
  service = started;
  probe = watching;
});

const productEvent = (account: number, email: string) => ({
  event_id: randomUUID(),
  account_id: account,
  event: 'signup',
  email,
  properties: { first_name: 'Rae' },
  received_at: new Date().toISOString(),
});

/** Waits until the service acked `count` deliveries of the message. */
const acked = (messageId: string, count = 1) =>
  waitFor(
    () => {
      const mine = service.outcomes.filter((outcome) => outcome.messageId === messageId && outcome.outcome === 'ack');
      return mine.length >= count ? mine : undefined;
    },
    { what: `message ${messageId} acked ${count} time(s)` },
  );

/** The enriched copies of one event the probe has seen, once there are `count` of them. */
const enrichedCopies = (eventId: string, count: number) =>
  waitFor(
    () => {
      const mine = probe.enrichedEvents().filter((copy) => copy.payload.event_id === eventId);
      return mine.length >= count ? mine : undefined;
    },
    { what: `${count} enriched copies of ${eventId}` },
  );

async function contactRows(account: number) {
  const { rows } = await service.pool.query<{ id: string; updated_at: Date }>('SELECT id, updated_at FROM contacts WHERE account_id = $1', [account]);
  return rows;
}

async function createdFacts(account: number) {
  const { rows } = await service.pool.query(
    `SELECT id FROM outbox WHERE message_type = 'contact.created.v1' AND (payload->>'account_id')::bigint = $1`,
    [account],
  );
  return rows.length;
}

describe('contacts.product-events: one enriched event per product event, redeliveries included', () => {
  it('upserts the contact of a product_event.received.v1 message and publishes one enriched message; a redelivery upserts nothing and publishes it again under the same id', async () => {
    const account = newAccountId();
    const received = productEvent(account, uniqueEmail());
    await probe.publish(productEventReceivedV1.type, received, received.event_id);
    await acked(received.event_id);
    // Confirmed before the ack, so it is on its way to the probe by now.
    const [first, ...more] = await enrichedCopies(received.event_id, 1);
    expect(more).toEqual([]);
    expect(first).toMatchObject({ messageId: `enriched:${received.event_id}`, batched: false });
    const [contact, ...others] = await contactRows(account);
    expect(others).toEqual([]);
    expect(first!.payload.contact).toMatchObject({ id: Number(contact!.id), email: received.email, first_name: 'Rae' });

    await probe.publish(productEventReceivedV1.type, received, received.event_id);
    await acked(received.event_id, 2);
    expect(await contactRows(account)).toEqual([contact]);
    expect(await createdFacts(account)).toBe(1);
    const copies = await enrichedCopies(received.event_id, 2);
    expect(copies.map((copy) => copy.messageId)).toEqual([`enriched:${received.event_id}`, `enriched:${received.event_id}`]);
    expect(copies[1]!.payload).toEqual(first!.payload);
  });

  it('publishes the enriched event on redelivery when the first attempt committed the contact and died before its publish', async () => {
    const account = newAccountId();
    const received = productEvent(account, uniqueEmail());
    const lostPublish = { pool: service.pool, broker: service.broker, deliver: () => Promise.reject(new Error('the process died here')) };
    const firstDelivery = { type: productEventReceivedV1.type, payload: received, messageId: received.event_id, headers: {}, redelivered: false };
    await expect(upsertEventContacts(lostPublish, firstDelivery)).rejects.toThrow('the process died here');
    const [contact] = await contactRows(account);
    expect(contact).toBeDefined();
    expect(probe.enrichedEvents().filter((copy) => copy.payload.event_id === received.event_id)).toEqual([]);

    // The message was never acked: the broker delivers it again, to the running consumer.
    await probe.publish(productEventReceivedV1.type, received, received.event_id);
    await acked(received.event_id);
    const [enriched, ...more] = await enrichedCopies(received.event_id, 1);
    expect(more).toEqual([]);
    expect(enriched).toMatchObject({ messageId: `enriched:${received.event_id}` });
    expect(enriched!.payload.contact).toMatchObject({ id: Number(contact!.id), email: received.email });
    expect(await contactRows(account)).toEqual([contact]);
    expect(await createdFacts(account)).toBe(1);
  });
});
