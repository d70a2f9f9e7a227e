import { setImmediate as nextTurn } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { triggerRoutingKey } from '@mailer/shared';
import { waitFor } from '@mailer/testing';
import { publishEnrichedEvent } from '../src/domain/publish-enriched-event';
import { contactsWithEnrichedProbe, type BrokerProbe } from './support/contacts-with-enriched-probe';
import { newAccountId, uniqueEmail, type ContactsTestService } from './support/contacts-test-service';

let service: ContactsTestService;
let probe: BrokerProbe;
contactsWithEnrichedProbe((started, watching) => {
  service = started;
  probe = watching;
});

const enriched = (account: number, event: string, id: number) => ({
  event_id: randomUUID(),
  account_id: account,
  event,
  email: uniqueEmail(),
  properties: { n: id },
  received_at: new Date().toISOString(),
  contact: { id, email: `c${id}@mx.test`, first_name: null, last_name: null, subscribed: true, bounced: false, tags: [], custom_properties: {}, suppression: null },
});

describe('enriched product events published together', () => {
  it('go alone when nothing waits, then one message per trigger for those ready during its confirm, each event once', async () => {
    const account = newAccountId();
    const signups = Array.from({ length: 6 }, (_, index) => enriched(account, 'signup', index + 1));
    const views = Array.from({ length: 4 }, (_, index) => enriched(account, 'page_view', index + 10));
    // The first is published alone at the end of its turn; the rest, handed over in the next turn,
    // wait for its confirm. The second delivery of one event, handled at the same time, travels once.
    const all = [...signups, ...views, signups[3]!];
    const first = publishEnrichedEvent(service.broker, all[0]!);
    await nextTurn();
    await Promise.all([first, ...all.slice(1).map((event) => publishEnrichedEvent(service.broker, event))]);
    const ids = new Set<string>(all.map((event) => event.event_id));
    const mine = () => probe.seen.filter((message) => message.payload.account_id === account || (message.payload.events as Array<{ account_id: number }> | undefined)?.[0]?.account_id === account);
    await waitFor(() => (probe.enrichedEvents().filter((copy) => ids.has(copy.payload.event_id as string)).length === 10 ? true : undefined), { what: 'ten enriched events' });
    const messages = mine().map((message) => ({
      type: message.type,
      routingKey: message.routingKey,
      messageId: message.messageId,
      events: message.type === 'product_event.enriched.v1' ? [message.payload.event_id] : (message.payload.events as Array<{ event_id: string }>).map((event) => event.event_id),
    }));
    expect(messages).toEqual([
      { type: 'product_event.enriched.v1', routingKey: triggerRoutingKey(account, 'signup'), messageId: `enriched:${signups[0]!.event_id}`, events: [signups[0]!.event_id] },
      { type: 'product_events.enriched.v1', routingKey: triggerRoutingKey(account, 'signup'), messageId: expect.any(String), events: signups.slice(1).map((event) => event.event_id) },
      { type: 'product_events.enriched.v1', routingKey: triggerRoutingKey(account, 'page_view'), messageId: expect.any(String), events: views.map((event) => event.event_id) },
    ]);
  });
});
