import { withTransaction, type campaignControlV1, type MessageOf, type Pool } from '@mailer/shared';
import { findDelivery, setDeliveryState, type DeliveryState } from '../../data-access/campaign-deliveries.repository';
import { requeueTemporaryFailures, skipOpenSends } from '../../data-access/campaign-sends.repository';

/** A control for a campaign automation has not heard of yet: retried until its send request is in. */
export class DeliveryNotStartedError extends Error {
  constructor(campaignId: number) {
    super(`campaign ${campaignId} has no delivery yet`);
    this.name = 'DeliveryNotStartedError';
  }
}

export type ControlEffect = 'applied' | 'stale';

/**
 * Pause, resume, cancel or retry-failed, applied once and in campaigns' order (by version): pause
 * stops claims at once (the claim checks the delivery's state); cancel skips every open recipient
 * with reason "cancelled"; retry-failed makes temporary failures due again, once each.
 */
export async function applyCampaignControl(pool: Pool, control: MessageOf<typeof campaignControlV1>): Promise<ControlEffect> {
  return withTransaction(pool, async (client) => {
    const delivery = await findDelivery(client, control.campaign_id, true);
    if (!delivery || delivery.account_id !== control.account_id) throw new DeliveryNotStartedError(control.campaign_id);
    if (control.version <= delivery.control_version) return 'stale';
    const states: Record<typeof control.action, DeliveryState> = {
      pause: 'paused',
      resume: 'sending',
      cancel: 'cancelled',
      retry_failed: 'sending',
    };
    const finished = delivery.state === 'cancelled' || delivery.state === 'failed';
    const state = finished ? delivery.state : states[control.action];
    if (control.action === 'cancel') await skipOpenSends(client, control.campaign_id, 'cancelled');
    if (control.action === 'retry_failed' && !finished) await requeueTemporaryFailures(client, control.campaign_id);
    await setDeliveryState(client, control.campaign_id, { state, controlVersion: control.version });
    return 'applied';
  });
}
