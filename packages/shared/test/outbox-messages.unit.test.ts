import { contactCreatedV1, contactsCreatedV1, contactUpdatedV1 } from '../src/contracts/contact-facts';
import type { MessageContract } from '../src/contracts/message-contract';
import { outboxMessages, type OutboxBundle, type OutboxRow } from '../src/messaging/outbox-messages';

const contracts = new Map<string, MessageContract>([contactCreatedV1, contactUpdatedV1].map((contract) => [contract.type, contract]));
const row = (id: number, type: string, traceContext: string | null = null): OutboxRow => ({
  id,
  message_id: String(id),
  type,
  payload: { n: id },
  trace_context: traceContext,
});
const bundle: OutboxBundle = {
  type: contactCreatedV1.type,
  max: 2,
  contract: contactsCreatedV1,
  payloadOf: (rows) => ({ facts: rows.map((each) => ({ id: each.message_id, fact: each.payload })) }),
};
const summary = (rows: OutboxRow[], withBundle?: OutboxBundle) =>
  outboxMessages(rows, contracts, withBundle).map((message) => [message.contract?.type, message.options.routingKey, message.rowIds]);

describe('outbox rows as messages', () => {
  it('publishes each row alone under its own message id and trace when nothing is bundled', () => {
    const messages = outboxMessages([row(1, contactCreatedV1.type, 'trace-1'), row(2, contactUpdatedV1.type)], contracts);
    expect(messages.map(({ contract, payload, options, rowIds }) => [contract?.type, payload, options, rowIds])).toEqual([
      [contactCreatedV1.type, { n: 1 }, { messageId: '1', headers: { traceparent: 'trace-1' } }, [1]],
      [contactUpdatedV1.type, { n: 2 }, { messageId: '2', headers: undefined }, [2]],
    ]);
  });

  it("puts the bundled type's rows first, a message's worth together, and a lone one of them alone", () => {
    const rows = [row(1, contactCreatedV1.type, 'trace-1'), row(2, contactUpdatedV1.type), row(3, contactCreatedV1.type), row(4, contactCreatedV1.type)];
    expect(summary(rows, bundle)).toEqual([
      [contactsCreatedV1.type, contactCreatedV1.type, [1, 3]],
      [contactCreatedV1.type, undefined, [4]],
      [contactUpdatedV1.type, undefined, [2]],
    ]);
    const [together] = outboxMessages(rows, contracts, bundle);
    expect(together!.payload).toEqual({ facts: [{ id: '1', fact: { n: 1 } }, { id: '3', fact: { n: 3 } }] });
    expect(together!.options.headers).toEqual({ traceparent: 'trace-1' });
    expect(together!.options.messageId).not.toMatch(/^[0-9]+$/);
  });

  it('leaves a row of a type the service does not know without a contract, beside the others', () => {
    expect(summary([row(1, 'contact.renamed.v9'), row(2, contactUpdatedV1.type)])).toEqual([
      [undefined, undefined, [1]],
      [contactUpdatedV1.type, undefined, [2]],
    ]);
  });
});
