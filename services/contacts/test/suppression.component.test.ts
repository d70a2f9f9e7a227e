import { randomUUID } from 'node:crypto';
import { waitFor } from '@mailer/testing';
import { contactsWithEnrichedProbe, type BrokerProbe } from './support/contacts-with-enriched-probe';
import { newAccountId, uniqueEmail, type ContactsTestService } from './support/contacts-test-service';

let service: ContactsTestService;
let probe: BrokerProbe;
contactsWithEnrichedProbe((started, watching) => {
  service = started;
  probe = watching;
});

const now = () => new Date().toISOString();

const settled = (messageId: string) =>
  waitFor(() => service.outcomes.find((outcome) => outcome.messageId === messageId && outcome.outcome !== 'requeue'), {
    what: `message ${messageId} settled`,
  });

/** The account's suppression rows for the address, oldest first. */
async function suppressions(account: number, email: string) {
  const { rows } = await service.pool.query<{ reason: string; source: string; lifted: boolean; lifted_by: string | null }>(
    `SELECT reason, source, lifted_at IS NOT NULL AS lifted, lifted_by FROM suppressions
      WHERE account_id = $1 AND address = lower($2) ORDER BY id`,
    [account, email],
  );
  return rows;
}

/** Sends a product event through the real queue; resolves to the enriched copy's contact snapshot. */
async function productEvent(account: number, email: string) {
  const event = { event_id: randomUUID(), account_id: account, event: 'signup', email, properties: {}, received_at: now() };
  await probe.publish('product_event.received.v1', event, event.event_id);
  await settled(event.event_id);
  const enriched = await waitFor(() =>
    probe.enrichedEvents().find((copy) => copy.payload.event_id === event.event_id),
  );
  return (enriched.payload as { contact: { id: number; subscribed: boolean; suppression: string | null } }).contact;
}

describe('the suppression list', () => {
  it('PATCH subscribed:false suppresses the address; after a delete, an event re-creates the contact unsubscribed', async () => {
    const account = newAccountId();
    const email = uniqueEmail();
    const contact = (await service.api.create(account, { email, subscribed: true })).body.data;
    expect((await service.api.update(account, contact.id, { subscribed: false })).status).toBe(200);
    expect(await suppressions(account, email)).toEqual([{ reason: 'unsubscribed', source: 'api', lifted: false, lifted_by: null }]);
    expect((await service.api.remove(account, contact.id)).status).toBe(204);

    const recreated = await productEvent(account, email);
    expect(recreated).toMatchObject({ subscribed: false, suppression: 'unsubscribed' });
    expect(recreated.id).not.toBe(contact.id);
    expect((await service.api.get(account, recreated.id)).body.data).toMatchObject({ subscribed: false, source: 'event' });
  });

  it('an event never changes subscribed of an existing contact, either way', async () => {
    const account = newAccountId();
    const no = (await service.api.create(account, { email: uniqueEmail() })).body.data;
    const yes = (await service.api.create(account, { email: uniqueEmail(), subscribed: true })).body.data;
    expect(await productEvent(account, no.email)).toMatchObject({ id: no.id, subscribed: false, suppression: null });
    expect(await productEvent(account, yes.email)).toMatchObject({ id: yes.id, subscribed: true, suppression: null });
    expect((await service.api.get(account, no.id)).body.data.subscribed).toBe(false);
    expect((await service.api.get(account, yes.id)).body.data.subscribed).toBe(true);
  });

  it('a hard bounce suppresses the address even with no contact; only subscribed:true on create lifts it, recorded', async () => {
    const account = newAccountId();
    const email = uniqueEmail();
    const messageId = randomUUID();
    await probe.publish('contact.bounced.v1', { account_id: account, email, reason: '550', occurred_at: now() }, messageId);
    await settled(messageId);
    expect(await suppressions(account, email)).toEqual([{ reason: 'bounced', source: 'smtp_bounce', lifted: false, lifted_by: null }]);

    const quiet = (await service.api.create(account, { email: email.toUpperCase() })).body.data;
    expect(quiet.subscribed).toBe(false);
    expect((await service.api.remove(account, quiet.id)).status).toBe(204);
    expect(await suppressions(account, email)).toHaveLength(1);

    const yes = (await service.api.create(account, { email, subscribed: true })).body.data;
    expect(yes.subscribed).toBe(true);
    expect(await suppressions(account, email)).toEqual([
      { reason: 'bounced', source: 'smtp_bounce', lifted: true, lifted_by: expect.stringMatching(/^account holder/) },
    ]);
    expect(await productEvent(account, email)).toMatchObject({ id: yes.id, subscribed: true, suppression: null });
  });

  it('an unsubscribe request for a contact deleted meanwhile still suppresses its address', async () => {
    const account = newAccountId();
    const email = uniqueEmail();
    const contact = (await service.api.create(account, { email, subscribed: true })).body.data;
    await service.api.remove(account, contact.id);
    const messageId = randomUUID();
    await probe.publish('contact.unsubscribe_requested.v1', { account_id: account, contact_id: contact.id, email, occurred_at: now() }, messageId);
    await settled(messageId);
    expect(await suppressions(account, email)).toEqual([{ reason: 'unsubscribed', source: 'unsubscribe_link', lifted: false, lifted_by: null }]);
    expect(await productEvent(account, email)).toMatchObject({ subscribed: false, suppression: 'unsubscribed' });
  });

  it('a second "no" while one stands adds nothing; after a lift, a new "no" is a new row', async () => {
    const account = newAccountId();
    const email = uniqueEmail();
    const contact = (await service.api.create(account, { email, subscribed: true })).body.data;
    await service.api.update(account, contact.id, { subscribed: false });
    await service.api.update(account, contact.id, { subscribed: false });
    expect(await suppressions(account, email)).toHaveLength(1);
    await service.api.update(account, contact.id, { subscribed: true });
    await service.api.update(account, contact.id, { subscribed: false });
    expect((await suppressions(account, email)).map((row) => row.lifted)).toEqual([true, false]);
  });
});
