import { WEBHOOK_FACT_TYPES } from '@mailer/shared';
import { FACT_OF_WEBHOOK_EVENT, factsFor } from '../src/domain/fact-of-webhook-event';
import { WEBHOOK_FACTS, webhooksOfFact } from '../src/domain/webhooks-of-fact';
import { factsOfEveryKind } from './support/facts';

describe('the fact each webhook event type comes from (what webhooks.facts is bound to)', () => {
  it('is exactly what webhooksOfFact turns each kind of fact into, for every event type', () => {
    const derived: Record<string, string[]> = {};
    for (const fact of factsOfEveryKind(1)) {
      for (const event of webhooksOfFact(fact, 'message-1')) {
        derived[event.type] = [...new Set([...(derived[event.type] ?? []), fact.type])];
      }
    }
    const table = Object.fromEntries(Object.entries(FACT_OF_WEBHOOK_EVENT).map(([event, fact]) => [event, [fact]]));
    expect(derived).toEqual(table);
  });

  it('covers the facts the consumer takes, which are the ones the queue may be bound to', () => {
    const consumed = WEBHOOK_FACTS.map((contract) => contract.type).sort();
    expect(consumed).toEqual([...WEBHOOK_FACT_TYPES].sort());
    expect(factsFor(Object.keys(FACT_OF_WEBHOOK_EVENT)).sort()).toEqual(consumed);
  });

  it('names each needed fact once, and none for no event type or an unknown one', () => {
    expect(factsFor(['contact.updated', 'contact.unsubscribed', 'email.failed'])).toEqual(['contact.updated.v1', 'email.sent.v1']);
    expect(factsFor([])).toEqual([]);
    expect(factsFor(['nonsense', 'toString'])).toEqual([]);
  });
});
