import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { campaignProgressV1, type Broker, type Pool, WakeableLoop } from '@mailer/shared';
import {
  markReportedFinal,
  setDeliveryState,
  unreportedDeliveries,
} from '../../data-access/campaign-deliveries.repository';
import { countCampaignSends, skipOpenSends } from '../../data-access/campaign-sends.repository';

/** With this many final failures and not one email accepted, the SMTP server is refusing everything. */
const REFUSED_EVERYTHING_AFTER = 20;

/**
 * Publishes each campaign's counts, read from its ledger, every `intervalMs` while it is in flight:
 * one message per campaign per interval, however many emails went out. Counts are absolute, so a
 * lost message is made good by the next. Once the final counts are confirmed by the broker the
 * campaign is left alone until something changes them again (retry, unsubscribe).
 */
export class CampaignProgressReporter {
  private readonly loop: WakeableLoop;

  constructor(
    private readonly pool: Pool,
    private readonly broker: Broker,
    private readonly logger: Logger,
    intervalMs: number,
  ) {
    this.loop = new WakeableLoop('campaign-progress', () => this.tick(), intervalMs, logger);
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async tick(): Promise<boolean> {
    if (!this.broker.isConnected()) return false;
    for (const delivery of await unreportedDeliveries(this.pool)) {
      let counts = await countCampaignSends(this.pool, delivery.campaign_id);
      let failureReason = delivery.failure_reason;
      if (delivery.state === 'sending' && counts.sent === 0 && counts.failed >= REFUSED_EVERYTHING_AFTER) {
        failureReason = `the SMTP server refused every email (${counts.failed} failed, none accepted)`;
        this.logger.warn({ campaignId: delivery.campaign_id }, failureReason);
        await setDeliveryState(this.pool, delivery.campaign_id, { state: 'failed', failureReason });
        await skipOpenSends(this.pool, delivery.campaign_id, 'campaign_failed');
        counts = await countCampaignSends(this.pool, delivery.campaign_id);
      }
      const finished = counts.open === 0 && delivery.state !== 'paused';
      await this.broker.publish(
        campaignProgressV1,
        {
          account_id: delivery.account_id,
          campaign_id: delivery.campaign_id,
          total_recipients: counts.total,
          sent: counts.sent,
          failed: counts.failed,
          skipped: counts.skipped,
          bounced: counts.bounced,
          unsubscribes: counts.unsubscribes,
          finished,
          failure_reason: failureReason,
          control_version: delivery.control_version,
          counted_at: Number(counts.counted_at),
        },
        { messageId: randomUUID() },
      );
      if (finished || failureReason !== null)
        await markReportedFinal(
          this.pool,
          delivery.campaign_id,
          delivery.control_version,
          Number(counts.counted_at),
        );
    }
    return false;
  }
}
