import { randomUUID } from 'node:crypto';
import { QUEUES } from '@mailer/shared';
import { waitFor } from '@mailer/testing';
import { brokerProbe } from './support/broker-probe';
import {
  newAccountId,
  startContactsForTest,
  uniqueEmail,
  type ContactsTestService,
} from './support/contacts-test-service';

let service: ContactsTestService;
let probe: Awaited<ReturnType<typeof brokerProbe>>;
beforeAll(async () => {
  service = await startContactsForTest();
  probe = await brokerProbe(service.config.BROKER_NAMESPACE, ['contact.#', 'product_event.enriched.v1.*']);
});
afterAll(async () => {
  await probe.close();
  await service.stop();
});

/** Waits until the service settled `count` deliveries of the message (ack or dead-letter). */
const settled = (messageId: string, count = 1) =>
  waitFor(
    () => {
      const mine = service.outcomes.filter(
        (outcome) => outcome.messageId === messageId && outcome.outcome !== 'requeue',
      );
      return mine.length >= count ? mine : undefined;
    },
    { what: `message ${messageId} settled ${count} time(s)` },
  );

async function factsAbout(contactId: number, type: string) {
  const { rows } = await service.pool.query<{ payload: { changed?: string[] } }>(
    `SELECT payload FROM outbox WHERE message_type = $1 AND (payload->'contact'->>'id')::bigint = $2 ORDER BY id`,
    [type, contactId],
  );
  return rows.map((row) => row.payload);
}

const now = () => new Date().toISOString();

describe('contacts.bounces consumer', () => {
  it('marks the contact bounced and announces contact.updated.v1', async () => {
    const account = newAccountId();
    const contact = (await service.api.create(account, { email: uniqueEmail('mx.test', 'Bouncy') })).body
      .data;
    const messageId = randomUUID();
    const bounce = {
      account_id: account,
      email: contact.email.toLowerCase(),
      reason: '550 no such user',
      occurred_at: now(),
    };
    await probe.publish('contact.bounced.v1', bounce, messageId);
    expect((await settled(messageId))[0]!.outcome).toBe('ack');
    expect((await service.api.get(account, contact.id)).body.data.bounced).toBe(true);
    expect(await factsAbout(contact.id, 'contact.updated.v1')).toEqual([
      expect.objectContaining({ changed: ['bounced'] }),
    ]);
    const filtered = await service.api.list(account, { bounced: 'true' });
    expect(filtered.body.data.map((listed) => listed.id)).toEqual([contact.id]);
  });

  it('applies a message id once: a redelivery after the state changed back changes nothing', async () => {
    const account = newAccountId();
    const contact = (await service.api.create(account, { email: uniqueEmail() })).body.data;
    const messageId = randomUUID();
    const bounce = { account_id: account, email: contact.email, reason: '550', occurred_at: now() };
    await probe.publish('contact.bounced.v1', bounce, messageId);
    await settled(messageId);
    // Only the inbox can tell the redelivery apart from a new bounce now.
    await service.pool.query('UPDATE contacts SET bounced = false WHERE id = $1', [contact.id]);
    await Promise.all([
      probe.publish('contact.bounced.v1', bounce, messageId),
      probe.publish('contact.bounced.v1', bounce, messageId),
    ]);
    expect((await settled(messageId, 3)).map((outcome) => outcome.outcome)).toEqual(['ack', 'ack', 'ack']);
    expect((await service.api.get(account, contact.id)).body.data.bounced).toBe(false);
    expect(await factsAbout(contact.id, 'contact.updated.v1')).toHaveLength(1);
  });

  it('acknowledges a bounce for an unknown address without changing anything', async () => {
    const messageId = randomUUID();
    await probe.publish(
      'contact.bounced.v1',
      { account_id: newAccountId(), email: 'ghost@mx.test', reason: 'x', occurred_at: now() },
      messageId,
    );
    expect((await settled(messageId))[0]!.outcome).toBe('ack');
  });

  it('dead-letters a message that fails its contract', async () => {
    const messageId = randomUUID();
    await probe.publish('contact.bounced.v1', { account_id: 'not-a-number' }, messageId);
    expect((await settled(messageId))[0]!.outcome).toBe('dead-letter');
    const dead = await waitFor(() => probe.takeDeadLetter(QUEUES.contactsBounces.name), {
      what: 'the dead letter',
    });
    expect(dead.messageId).toBe(messageId);
  });
});

describe('contacts.unsubscribes consumer', () => {
  it("sets subscribed to false once under duplicate delivery, and ignores another account's contact", async () => {
    const account = newAccountId();
    const contact = (await service.api.create(account, { email: uniqueEmail(), subscribed: true })).body.data;
    const foreign = randomUUID();
    await probe.publish(
      'contact.unsubscribe_requested.v1',
      { account_id: newAccountId(), contact_id: contact.id, occurred_at: now() },
      foreign,
    );
    await settled(foreign);
    expect((await service.api.get(account, contact.id)).body.data.subscribed).toBe(true);

    const messageId = randomUUID();
    const request = { account_id: account, contact_id: contact.id, occurred_at: now() };
    await probe.publish('contact.unsubscribe_requested.v1', request, messageId);
    await probe.publish('contact.unsubscribe_requested.v1', request, messageId);
    await settled(messageId, 2);
    expect((await service.api.get(account, contact.id)).body.data.subscribed).toBe(false);
    expect(await factsAbout(contact.id, 'contact.updated.v1')).toEqual([
      expect.objectContaining({ changed: ['subscribed'] }),
    ]);
  });
});

describe('contacts.product-events consumer', () => {
  const event = (account: number, email: string, properties: Record<string, unknown>) => ({
    event_id: randomUUID(),
    account_id: account,
    event: 'signup',
    email,
    properties,
    received_at: now(),
  });

  /** The enriched copies of one event the probe has seen so far, alone or in a batch. */
  const enrichedCopies = (eventId: string) => probe.enrichedEvents().filter((copy) => copy.payload.event_id === eventId);

  it('creates a missing contact (source "event", subscribed, names from properties) and publishes the enriched event under one id', async () => {
    const account = newAccountId();
    const email = uniqueEmail('missing.test'); // DNS is not consulted for event upserts
    const received = event(account, email, { first_name: 'Eve', last_name: 'Ng', plan: 'trial' });
    await Promise.all([
      probe.publish('product_event.received.v1', received, received.event_id),
      probe.publish('product_event.received.v1', received, received.event_id),
    ]);
    await settled(received.event_id, 2);
    const listed = await service.api.list(account);
    expect(listed.body.meta.total_count).toBe(1);
    const contact = listed.body.data[0]!;
    expect(contact).toMatchObject({
      email,
      source: 'event',
      subscribed: true,
      first_name: 'Eve',
      last_name: 'Ng',
      bounced: false,
    });
    // The fact is the one a contact created through the API announces: same shape, its id and creation time.
    expect(await factsAbout(contact.id, 'contact.created.v1')).toEqual([
      {
        account_id: account,
        contact: { id: contact.id, email, first_name: 'Eve', last_name: 'Ng', subscribed: true, bounced: false, tags: [], custom_properties: {}, suppression: null },
        occurred_at: contact.created_at,
      },
    ]);
    // Both deliveries publish (the second cannot know the first's publish was confirmed), alone and
    // with the same message id, which automation's inbox deduplicates; ready at once, they go once.
    const enriched = await waitFor(() => {
      const mine = enrichedCopies(received.event_id);
      return mine.length > 0 ? mine : undefined;
    });
    expect(enriched.length).toBeLessThanOrEqual(2);
    expect(new Set(enriched.map((message) => message.messageId))).toEqual(new Set([`enriched:${received.event_id}`]));
    expect(enriched[0]!.payload).toMatchObject({
      ...received,
      contact: { id: contact.id, email, first_name: 'Eve', subscribed: true },
    });
  });

  it('fills only missing names of an existing contact and keeps its other fields', async () => {
    const account = newAccountId();
    const contact = (
      await service.api.create(account, {
        email: uniqueEmail(),
        first_name: 'Kept',
        subscribed: false,
        source: 'api',
      })
    ).body.data;
    const received = event(account, contact.email.toUpperCase(), {
      first_name: 'Ignored',
      last_name: 'Filled',
    });
    await probe.publish('product_event.received.v1', received, received.event_id);
    await settled(received.event_id);
    const after = (await service.api.get(account, contact.id)).body.data;
    expect(after).toMatchObject({
      first_name: 'Kept',
      last_name: 'Filled',
      subscribed: false,
      source: 'api',
    });
    expect(await factsAbout(contact.id, 'contact.updated.v1')).toEqual([
      expect.objectContaining({ changed: ['last_name'] }),
    ]);
    const enriched = await waitFor(() => enrichedCopies(received.event_id)[0], { what: 'the enriched event' });
    expect(enriched.payload.contact).toMatchObject({ id: contact.id, first_name: 'Kept', last_name: 'Filled', subscribed: false });
  });

  it('enriches an event the contact needs nothing from with the contact as it stands, changing nothing, once per message', async () => {
    const account = newAccountId();
    const contact = (
      await service.api.create(account, {
        email: uniqueEmail(),
        first_name: 'Ann',
        last_name: 'Lee',
        subscribed: false,
        tags: ['beta', 'Alpha'],
      })
    ).body.data;
    const received = event(account, contact.email.toUpperCase(), { first_name: 'Other', plan: 'pro' });
    await probe.publish('product_event.received.v1', received, received.event_id);
    await probe.publish('product_event.received.v1', received, received.event_id);
    await settled(received.event_id, 2);
    const after = (await service.api.get(account, contact.id)).body.data;
    expect(after).toEqual(contact);
    expect(await factsAbout(contact.id, 'contact.updated.v1')).toEqual([]);
    const enriched = await waitFor(() => {
      const mine = enrichedCopies(received.event_id);
      return mine.length > 0 ? mine : undefined;
    });
    expect(enriched.length).toBeLessThanOrEqual(2);
    expect(new Set(enriched.map((message) => message.messageId))).toEqual(new Set([`enriched:${received.event_id}`]));
    for (const copy of enriched) {
      expect(copy.payload.contact).toEqual({
        id: contact.id,
        email: contact.email,
        first_name: 'Ann',
        last_name: 'Lee',
        subscribed: false,
        bounced: false,
        tags: ['Alpha', 'beta'],
        custom_properties: {},
        suppression: null,
        pending_confirmation: false,
      });
    }
  });

  it('handles each event of a product_events.received.v1 message as if it had come alone, once per event', async () => {
    const account = newAccountId();
    const known = (await service.api.create(account, { email: uniqueEmail(), first_name: 'Kim' })).body.data;
    const events = [
      event(account, uniqueEmail(), { first_name: 'New' }),
      event(account, known.email, { last_name: 'Filled' }),
      event(account, known.email, { plan: 'pro' }),
    ];
    const messageId = randomUUID();
    await probe.publish('product_events.received.v1', { events }, messageId);
    expect((await settled(messageId))[0]!.outcome).toBe('ack');
    const listed = await service.api.list(account);
    expect(listed.body.meta.total_count).toBe(2);
    expect((await service.api.get(account, known.id)).body.data).toMatchObject({ first_name: 'Kim', last_name: 'Filled' });
    for (const received of events) {
      const enriched = await waitFor(() => enrichedCopies(received.event_id)[0], { what: `the enriched ${received.event_id}` });
      // Alone, under the id a redelivery publishes it with again; or in a batch of its trigger.
      if (!enriched.batched) expect(enriched.messageId).toBe(`enriched:${received.event_id}`);
    }
    // A redelivery of the message, and one of its events alone: each event's inbox row drops them.
    await probe.publish('product_events.received.v1', { events }, messageId);
    await probe.publish('product_event.received.v1', events[1], events[1]!.event_id);
    await settled(messageId, 2);
    await settled(events[1]!.event_id);
    expect((await service.api.list(account)).body.meta.total_count).toBe(2);
    expect(await factsAbout(known.id, 'contact.updated.v1')).toEqual([expect.objectContaining({ changed: ['last_name'] })]);
  });

  it('sends an event of a message that fails on its own back to the queue alone, and applies the others', async () => {
    const account = newAccountId();
    const good = event(account, uniqueEmail(), {});
    const poison = event(account, 'not an email', {});
    const messageId = randomUUID();
    await probe.publish('product_events.received.v1', { events: [good, poison] }, messageId);
    expect((await settled(messageId))[0]!.outcome).toBe('ack');
    // Published again under its own id, it is dead-lettered by itself.
    expect((await settled(poison.event_id))[0]!.outcome).toBe('dead-letter');
    const dead = await waitFor(() => probe.takeDeadLetter(QUEUES.contactsProductEvents.name), { what: 'the dead letter' });
    expect(dead.messageId).toBe(poison.event_id);
    expect(JSON.parse(dead.body)).toEqual(poison);
    const listed = await service.api.list(account);
    expect(listed.body.data.map((contact) => contact.email)).toEqual([good.email]);
  });

  it('dead-letters an event whose email is malformed (poison), creating nothing', async () => {
    const account = newAccountId();
    const received = event(account, 'not an email', {});
    await probe.publish('product_event.received.v1', received, received.event_id);
    expect((await settled(received.event_id))[0]!.outcome).toBe('dead-letter');
    const dead = await waitFor(() => probe.takeDeadLetter(QUEUES.contactsProductEvents.name), {
      what: 'the dead letter',
    });
    expect(dead.messageId).toBe(received.event_id);
    expect((await service.api.list(account)).body.meta.total_count).toBe(0);
  });
});
