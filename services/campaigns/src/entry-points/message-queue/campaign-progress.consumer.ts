import { campaignProgressV1, QUEUES, type Broker, type ConsumeOutcome, type Logger, type Pool } from '@mailer/shared';
import { applyCampaignProgress } from '../../domain/sending/apply-campaign-progress';

/** Automation's batched counts: the only way a sending campaign's counts and end state move. */
export function consumeCampaignProgress(deps: {
  broker: Broker;
  pool: Pool;
  logger: Logger;
  onOutcome?: ((outcome: ConsumeOutcome, messageId: string | undefined) => void) | undefined;
}): void {
  deps.broker.consume({
    queue: QUEUES.campaignsProgress.name,
    contracts: [campaignProgressV1],
    prefetch: 8,
    onOutcome: deps.onOutcome,
    handle: async (message) => {
      const effect = await applyCampaignProgress(deps.pool, message.payload);
      deps.logger.debug({ effect, campaignId: message.payload.campaign_id }, 'campaign progress handled');
    },
  });
}
