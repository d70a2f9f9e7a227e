import { emailSentV1, QUEUES, type Broker, type ConsumeOutcome, type Logger, type Pool } from '@mailer/shared';
import { recordSendResult } from '../../domain/record-send-result';

/** Automation's send results, the only way campaign counts move (services share no tables). */
export function consumeSendResults(deps: {
  broker: Broker;
  pool: Pool;
  logger: Logger;
  onOutcome?: ((outcome: ConsumeOutcome, messageId: string | undefined) => void) | undefined;
}): void {
  deps.broker.consume({
    queue: QUEUES.campaignsSendResults.name,
    contracts: [emailSentV1],
    prefetch: 16,
    onOutcome: deps.onOutcome,
    handle: async (message) => {
      const effect = await recordSendResult(deps.pool, message.messageId, message.payload);
      deps.logger.debug({ effect, campaignId: message.payload.campaign_id }, 'send result handled');
    },
  });
}
