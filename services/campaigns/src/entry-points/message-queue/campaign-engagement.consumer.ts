import { emailClickedV1, emailOpenedV1, QUEUES, type Broker, type ConsumeOutcome, type Logger, type Pool } from '@mailer/shared';
import { recordEngagementHit, type EngagementHit } from '../../domain/engagement/record-engagement-hit';

/** campaigns.engagement: the events service's tracking hits, counted per campaign for its report. */
export function consumeCampaignEngagement(deps: {
  broker: Broker;
  pool: Pool;
  logger: Logger;
  onOutcome?: ((outcome: ConsumeOutcome, messageId: string | undefined) => void) | undefined;
}): void {
  deps.broker.consume({
    queue: QUEUES.campaignsEngagement.name,
    contracts: [emailOpenedV1, emailClickedV1],
    prefetch: 32,
    onOutcome: deps.onOutcome,
    handle: async (message) => {
      // The payload was parsed as one of the two; parsing again narrows it to the one it is.
      const hit: EngagementHit =
        message.type === emailClickedV1.type
          ? { kind: 'click', payload: emailClickedV1.schema.parse(message.payload) }
          : { kind: 'open', payload: emailOpenedV1.schema.parse(message.payload) };
      const effect = await recordEngagementHit(deps.pool, hit);
      if (effect === 'unknown_campaign') {
        deps.logger.warn({ campaignId: hit.payload.campaign_id, accountId: hit.payload.account_id }, 'tracking hit for an unknown campaign dropped');
      } else {
        deps.logger.debug({ effect, campaignId: hit.payload.campaign_id }, 'tracking hit handled');
      }
    },
  });
}
