import { randomUUID } from 'node:crypto';
import { waitFor } from '@mailer/testing';
import { contactsWithEnrichedProbe, type BrokerProbe } from './support/contacts-with-enriched-probe';
import { newAccountId, uniqueEmail, type ContactsTestService } from './support/contacts-test-service';
import { insertContact } from './support/segment-factories';

let service: ContactsTestService;
let probe: BrokerProbe;
contactsWithEnrichedProbe((started, watching) => {
  service = started;
  probe = watching;
});

/** Waits until the service settled `count` deliveries of the message (ack or dead-letter). */
const settled = (messageId: string, count = 1) =>
  waitFor(
    () => {
      const mine = service.outcomes.filter((outcome) => outcome.messageId === messageId && outcome.outcome !== 'requeue');
      return mine.length >= count ? mine : undefined;
    },
    { what: `message ${messageId} settled ${count} time(s)` },
  );

function hit(account: number, contact: number, fields: { campaign_id?: number; machine?: boolean; occurred_at: string; click?: boolean }) {
  const { click, ...rest } = fields;
  return {
    hit_id: randomUUID(),
    account_id: account,
    contact_id: contact,
    sent_at: new Date(Date.now() - 3_600_000).toISOString(),
    machine: false,
    ...rest,
    ...(click ? { url: 'https://example.test/a', link: 0 } : {}),
  };
}

async function publishHit(payload: ReturnType<typeof hit>, type = 'url' in payload ? 'email.clicked.v1' : 'email.opened.v1') {
  await probe.publish(type, payload, payload.hit_id);
  const outcomes = await settled(payload.hit_id);
  expect(outcomes[0]!.outcome).toBe('ack');
}

async function engagementOf(contact: number) {
  const [{ rows: contactRows }, { rows }] = await Promise.all([
    service.pool.query<{ last_engaged_at: Date | null }>('SELECT last_engaged_at FROM contacts WHERE id = $1', [contact]),
    service.pool.query<{ campaign_id: number | null; first_opened_at: Date; first_clicked_at: Date | null }>(
      'SELECT campaign_id, first_opened_at, first_clicked_at FROM contact_engagements WHERE contact_id = $1 ORDER BY campaign_id NULLS FIRST',
      [contact],
    ),
  ]);
  return { lastEngagedAt: contactRows[0]?.last_engaged_at?.toISOString() ?? null, rows };
}

describe('contacts.engagement consumer', () => {
  it('a reader open sets last_engaged_at and the campaign opened; a later click marks it clicked and keeps the first open', async () => {
    const account = newAccountId();
    const contact = await insertContact(service.pool, account);
    await publishHit(hit(account, contact, { campaign_id: 5, occurred_at: '2026-03-01T10:00:00.000Z' }));
    await publishHit(hit(account, contact, { campaign_id: 5, occurred_at: '2026-03-02T10:00:00.000Z', click: true }));
    // An older hit arriving late moves nothing back.
    await publishHit(hit(account, contact, { campaign_id: 5, occurred_at: '2026-02-01T10:00:00.000Z' }));
    const engagement = await engagementOf(contact);
    expect(engagement.lastEngagedAt).toBe('2026-03-02T10:00:00.000Z');
    expect(engagement.rows.map((row) => [row.campaign_id, row.first_opened_at.toISOString(), row.first_clicked_at?.toISOString()])).toEqual([
      [5, '2026-02-01T10:00:00.000Z', '2026-03-02T10:00:00.000Z'],
    ]);
  });

  it('a click alone is an open too; workflow emails share one row without a campaign', async () => {
    const account = newAccountId();
    const contact = await insertContact(service.pool, account);
    await publishHit(hit(account, contact, { occurred_at: '2026-03-01T10:00:00.000Z', click: true }));
    await publishHit(hit(account, contact, { occurred_at: '2026-03-03T10:00:00.000Z' }));
    const { rows } = await engagementOf(contact);
    expect(rows.map((row) => [row.campaign_id, row.first_opened_at.toISOString(), row.first_clicked_at?.toISOString()])).toEqual([
      [null, '2026-03-01T10:00:00.000Z', '2026-03-01T10:00:00.000Z'],
    ]);
  });

  it('a machine hit is acked and changes nothing', async () => {
    const account = newAccountId();
    const contact = await insertContact(service.pool, account);
    await publishHit(hit(account, contact, { campaign_id: 5, occurred_at: new Date().toISOString(), machine: true, click: true }));
    expect(await engagementOf(contact)).toEqual({ lastEngagedAt: null, rows: [] });
  });

  it('a redelivered hit changes nothing twice, and a hit for a deleted contact is acked', async () => {
    const account = newAccountId();
    const contact = await insertContact(service.pool, account);
    const first = hit(account, contact, { campaign_id: 9, occurred_at: '2026-03-05T10:00:00.000Z' });
    await publishHit(first);
    await service.pool.query('UPDATE contact_engagements SET first_opened_at = $2 WHERE contact_id = $1', [contact, '2026-03-06T00:00:00Z']);
    await probe.publish('email.opened.v1', first, first.hit_id);
    expect((await settled(first.hit_id, 2))[1]!.outcome).toBe('ack');
    expect((await engagementOf(contact)).rows[0]!.first_opened_at.toISOString()).toBe('2026-03-06T00:00:00.000Z');
    await publishHit(hit(account, 2 ** 40, { campaign_id: 9, occurred_at: new Date().toISOString() }));
  });
});

describe('event days from product events', () => {
  const event = (account: number, email: string, name: string, properties: Record<string, unknown> = {}) => ({
    event_id: randomUUID(),
    account_id: account,
    event: name,
    email,
    properties,
    received_at: new Date().toISOString(),
  });

  async function eventDays(account: number) {
    const { rows } = await service.pool.query<{ event: string; count: number; today: boolean }>(
      `SELECT event, count, day = (now() AT TIME ZONE 'UTC')::date AS today FROM contact_event_days WHERE account_id = $1 ORDER BY event`,
      [account],
    );
    return rows;
  }

  it('counts each event once per contact, name and day, whether it creates the contact, finds it, fills a name or comes again', async () => {
    const account = newAccountId();
    const email = uniqueEmail();
    const events = [
      event(account, email, 'login'),
      event(account, email, 'login'),
      event(account, email, 'login', { first_name: 'Ada' }),
      event(account, email, 'upgrade'),
    ];
    for (const one of events) {
      await probe.publish('product_event.received.v1', one, one.event_id);
      await settled(one.event_id);
    }
    // A redelivery of an event already applied is not counted again.
    await probe.publish('product_event.received.v1', events[0], events[0]!.event_id);
    await settled(events[0]!.event_id, 2);
    expect(await eventDays(account)).toEqual([
      { event: 'login', count: 3, today: true },
      { event: 'upgrade', count: 1, today: true },
    ]);
  });

  it('counts the events of a batch message, one row per contact', async () => {
    const account = newAccountId();
    const batch = { events: [event(account, uniqueEmail(), 'visit'), event(account, uniqueEmail(), 'visit'), event(account, uniqueEmail(), 'visit')] };
    const messageId = randomUUID();
    await probe.publish('product_events.received.v1', batch, messageId);
    await settled(messageId);
    const { rows } = await service.pool.query<{ n: number; total: number }>(
      `SELECT count(*)::int AS n, sum(count)::int AS total FROM contact_event_days WHERE account_id = $1 AND event = 'visit'`,
      [account],
    );
    expect(rows[0]).toEqual({ n: 3, total: 3 });
  });
});
