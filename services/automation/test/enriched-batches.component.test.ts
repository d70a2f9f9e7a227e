import amqp from 'amqplib';
import { deadLetterQueueName, QUEUES } from '@mailer/shared';
import { testServers, waitFor } from '@mailer/testing';
import { enrichedEvent, newAccountId, newContact, startAutomationHarness, type AutomationHarness } from './support/automation-harness';

const welcome = {
  name: 'Welcome',
  trigger: { event: 'signup' },
  steps: [{ id: 'welcome', type: 'email', subject: 'Welcome', text: 'Hello {{ first_name | default: "friend" }}' }],
};

describe('product_events.enriched.v1: the enriched events of one trigger in one message', () => {
  let harness: AutomationHarness;
  beforeAll(async () => {
    harness = await startAutomationHarness('enriched_batches');
  });
  afterAll(async () => harness.stop());

  /** The account's enrolment decisions, as `contact id: outcome`, sorted. */
  const outcomes = async (account: number) =>
    (
      await harness.pool.query<{ decision: string }>(
        "SELECT contact_id || ': ' || outcome AS decision FROM delivery_log WHERE account_id = $1 AND outcome IN ('enrolled', 'already_enrolled')",
        [account],
      )
    ).rows.map((row) => row.decision).sort();

  it('handles each event as if it had come alone: once per event id, whatever carries it again', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, welcome);
    const [ann, bob] = [newContact({ first_name: 'Ann' }), newContact({ first_name: 'Bob' })];
    const events = await harness.publishEvents(account, 'signup', [{ contact: ann }, { contact: bob }, { contact: ann, properties: { again: true } }]);
    for (const event of events) await harness.waitProcessed(`enriched:${event.event_id}`);
    await harness.waitForState(account, ann.id, 'welcome', 'sent');
    await harness.waitForState(account, bob.id, 'welcome', 'sent');
    const before = await outcomes(account);
    expect(before).toEqual([`${ann.id}: already_enrolled`, `${ann.id}: enrolled`, `${bob.id}: enrolled`].sort());
    // Bob's event again alone, under the id contacts gives a lone copy, then the whole message again
    // with a new contact's event: only the new event is applied.
    await harness.publishEvent(account, bob, 'signup', {}, `enriched:${events[1]!.event_id}`);
    const cat = enrichedEvent(account, newContact({ first_name: 'Cat' }), 'signup', {});
    await harness.republishEvents([...events, cat]);
    await harness.waitProcessed(`enriched:${cat.event_id}`);
    await harness.waitForState(account, cat.contact.id, 'welcome', 'sent');
    expect(harness.sink.messagesTo(ann.email)).toHaveLength(1);
    expect(harness.sink.messagesTo(bob.email)).toHaveLength(1);
    expect(await outcomes(account)).toEqual([...before, `${cat.contact.id}: enrolled`].sort());
  });

  it('puts an event that fails on its own back in the queue alone, where it is dead-lettered by itself; the others are applied', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, welcome);
    const good = newContact();
    // Postgres refuses a NUL character in a JSON value: this event's statement fails, and only its own.
    const [applied, refused] = await harness.publishEvents(account, 'signup', [{ contact: good }, { contact: newContact(), properties: { note: 'a\u0000b' } }]);
    await harness.waitForState(account, good.id, 'welcome', 'sent');
    const connection = await amqp.connect(testServers().amqpUrl);
    try {
      const channel = await connection.createChannel();
      const namespace = harness.env.BROKER_NAMESPACE!;
      const dead = await waitFor(
        async () => (await channel.get(namespace + deadLetterQueueName(QUEUES.automationContactEvents.name), { noAck: true })) || undefined,
        { what: 'the dead letter', timeoutMs: 30_000 },
      );
      expect(dead.properties.messageId).toBe(`enriched:${refused!.event_id}`);
      expect(dead.properties.type).toBe('product_event.enriched.v1');
      expect(JSON.parse(dead.content.toString('utf8'))).toEqual(refused);
    } finally {
      await connection.close();
    }
    expect(await outcomes(account)).toEqual([`${applied!.contact.id}: enrolled`]);
  }, 60_000);
});
