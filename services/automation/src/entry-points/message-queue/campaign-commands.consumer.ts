import {
  campaignControlV1,
  campaignSendRequestedV1,
  campaignTestRequestedV1,
  QUEUES,
  type Broker,
  type ConsumeOutcome,
} from '@mailer/shared';
import { SegmentMembersUnavailable, type SegmentMembersClient } from '../../data-access/segment-members.client';
import { applyCampaignControl } from '../../domain/campaigns/apply-campaign-control';
import { sendCampaignTest } from '../../domain/campaigns/send-campaign-test';
import { startCampaignDelivery } from '../../domain/campaigns/start-campaign-delivery';
import type { SendContext } from '../../domain/sending/send-context';
import { retryInPlace } from './retry-in-place';

/**
 * automation.campaign-commands: campaigns' send requests, controls and test sends. One at a time
 * (prefetch 1), so a control is never applied before the send request published ahead of it; a
 * segment send waiting for the contacts service holds the commands behind it. Returns the stop
 * that ends such a wait (the request is then requeued for another instance).
 */
export function consumeCampaignCommands(
  broker: Broker,
  deps: {
    ctx: SendContext;
    segments: Pick<SegmentMembersClient, 'members'>;
    onStarted: () => void;
    onOutcome?: ((outcome: ConsumeOutcome, messageId: string | undefined) => void) | undefined;
  },
): { stop: () => void } {
  const { ctx } = deps;
  let stopping = false;
  const delivery = { pool: ctx.pool, renderer: ctx.renderer, mailDomain: ctx.mailDomain, segments: deps.segments };
  broker.consume({
    queue: QUEUES.automationCampaignCommands.name,
    contracts: [campaignSendRequestedV1, campaignControlV1, campaignTestRequestedV1],
    prefetch: 1,
    onOutcome: deps.onOutcome,
    handle: async (message) => {
      if (message.type === campaignSendRequestedV1.type) {
        // The payload was parsed as one of the three; parsing again narrows it to this one.
        const payload = campaignSendRequestedV1.schema.parse(message.payload);
        const started = await retryInPlace(() => startCampaignDelivery(delivery, payload, message.messageId), {
          isOutage: (error) => error instanceof SegmentMembersUnavailable,
          stopping: () => stopping,
          logger: ctx.logger,
          what: `campaign ${payload.campaign_id}: segment members`,
        });
        ctx.logger.info({ campaignId: payload.campaign_id, recipients: started.recipients, failureReason: started.failureReason }, 'campaign delivery started');
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
  return { stop: () => void (stopping = true) };
}
