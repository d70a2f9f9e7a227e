import { PoisonMessageError, withTransaction, type MessageOf, type Pool, type emailSentV1 } from '@mailer/shared';
import { addSendOutcome } from '../data-access/campaigns.repository';
import { claimMessage } from '../data-access/processed-messages.repository';

export type SendResultEffect = 'counted' | 'duplicate' | 'not-a-campaign';

/**
 * Counts one send outcome on its campaign, once per message id: the inbox claim and the counter
 * update commit together, so a redelivery changes nothing. Workflow emails (no campaign_id) are
 * not ours to count. A campaign the account does not have is an impossible reference: poison.
 */
export async function recordSendResult(
  pool: Pool,
  messageId: string,
  result: MessageOf<typeof emailSentV1>,
): Promise<SendResultEffect> {
  const campaignId = result.campaign_id;
  if (campaignId === undefined) return 'not-a-campaign';
  return withTransaction(pool, async (client) => {
    if (!(await claimMessage(client, messageId))) return 'duplicate';
    if (!(await addSendOutcome(client, result.account_id, campaignId, result.outcome))) {
      throw new PoisonMessageError(`account ${result.account_id} has no campaign ${campaignId}`);
    }
    return 'counted';
  });
}
