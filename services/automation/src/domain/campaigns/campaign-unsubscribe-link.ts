import { signUnsubscribeToken, unsubscribeUrl } from '../unsubscribe/unsubscribe-token';
import type { SendContext } from '../sending/send-context';

/** The recipient's unsubscribe link in a campaign email: signed like workflow links, and naming the campaign so it counts the unsubscribe. */
export function campaignUnsubscribeUrl(
  ctx: Pick<SendContext, 'publicBaseUrl' | 'unsubscribeSecret'>,
  target: { accountId: number; contactId: number; campaignId: number },
): string {
  return unsubscribeUrl(ctx.publicBaseUrl, signUnsubscribeToken(target, ctx.unsubscribeSecret));
}
