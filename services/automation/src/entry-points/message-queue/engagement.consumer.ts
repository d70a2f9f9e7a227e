import { emailClickedV1, emailOpenedV1, QUEUES, type Broker, type ConsumeOutcome, type Pool } from '@mailer/shared';
import { recordEngagement } from '../../domain/engagement/record-engagement';

/** automation.engagement: the events service's tracking hits, recorded on the emails' ledger rows. */
export function consumeEngagement(
  broker: Broker,
  deps: { pool: Pool; mailDomain: string; onOutcome?: ((outcome: ConsumeOutcome, messageId: string | undefined) => void) | undefined },
): void {
  broker.consume({
    queue: QUEUES.automationEngagement.name,
    contracts: [emailOpenedV1, emailClickedV1],
    prefetch: 32,
    onOutcome: deps.onOutcome,
    handle: async (message) => {
      // The payload was parsed as one of the two; parsing again narrows it.
      const hit =
        message.type === emailClickedV1.type
          ? ({ kind: 'click', payload: emailClickedV1.schema.parse(message.payload) } as const)
          : ({ kind: 'open', payload: emailOpenedV1.schema.parse(message.payload) } as const);
      // Deduplicated by the hit's id, which is also the message id.
      await recordEngagement(deps.pool, hit, { mailDomain: deps.mailDomain });
    },
  });
}
