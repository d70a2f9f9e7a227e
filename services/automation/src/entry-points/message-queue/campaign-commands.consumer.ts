import {
  campaignControlV1,
  campaignSendRequestedV1,
  campaignTestRequestedV1,
  QUEUES,
  type Broker,
  type ConsumeOutcome,
} from '@mailer/shared';
import { applyCampaignControl } from '../../domain/campaigns/apply-campaign-control';
import { sendCampaignTest } from '../../domain/campaigns/send-campaign-test';
import { startCampaignDelivery } from '../../domain/campaigns/start-campaign-delivery';
import type { SendContext } from '../../domain/sending/send-context';

/**
 * automation.campaign-commands: campaigns' send requests, controls and test sends. One at a time
 * (prefetch 1), so a control is never applied before the send request published ahead of it.
 */
export function consumeCampaignCommands(
  broker: Broker,
  deps: { ctx: SendContext; onStarted: () => void; onOutcome?: ((outcome: ConsumeOutcome, messageId: string | undefined) => void) | undefined },
): void {
  const { ctx } = deps;
  broker.consume({
    queue: QUEUES.automationCampaignCommands.name,
    contracts: [campaignSendRequestedV1, campaignControlV1, campaignTestRequestedV1],
    prefetch: 1,
    onOutcome: deps.onOutcome,
    handle: async (message) => {
      if (message.type === campaignSendRequestedV1.type) {
        // The payload was parsed as one of the three; parsing again narrows it to this one.
        const payload = campaignSendRequestedV1.schema.parse(message.payload);
        const started = await startCampaignDelivery({ pool: ctx.pool, renderer: ctx.renderer, mailDomain: ctx.mailDomain }, payload);
        ctx.logger.info({ campaignId: payload.campaign_id, recipients: started.recipients, templateError: started.templateError }, 'campaign delivery started');
      } else if (message.type === campaignControlV1.type) {
        const payload = campaignControlV1.schema.parse(message.payload);
        const effect = await applyCampaignControl(ctx.pool, payload);
        ctx.logger.info({ campaignId: payload.campaign_id, action: payload.action, effect }, 'campaign control handled');
      } else {
        await sendCampaignTest(ctx, campaignTestRequestedV1.schema.parse(message.payload));
      }
      deps.onStarted();
    },
  });
}
