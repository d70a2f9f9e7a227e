import { randomUUID } from 'node:crypto';
import type { campaignTestRequestedV1, MessageOf } from '@mailer/shared';
import { findContactByEmail } from '../../data-access/contacts.repository';
import { SmtpFailure } from '../../data-access/smtp-mailer';
import { RenderError } from '../rendering/render-email';
import type { SendContext } from '../sending/send-context';
import { campaignUnsubscribeUrl } from './campaign-unsubscribe-link';
import { renderCampaignEmail } from './campaign-email';

/**
 * A test email of a campaign's content to one address, outside the ledger (it is no recipient of
 * the campaign): personalised as the account's contact with that address when there is one, else
 * as an unknown contact (template defaults apply). The subject is marked "[Test]". A failure is
 * logged, not retried: the sender sees the email does not arrive and tries again.
 */
export async function sendCampaignTest(ctx: SendContext, request: MessageOf<typeof campaignTestRequestedV1>): Promise<'sent' | 'failed'> {
  const known = await findContactByEmail(ctx.pool, request.account_id, request.to);
  const contact = known ?? { email: request.to, first_name: null, last_name: null, tags: [], custom_properties: {} };
  const link = campaignUnsubscribeUrl(ctx, { accountId: request.account_id, contactId: known?.contact_id ?? 0, campaignId: request.campaign_id });
  const domain = ctx.mailDomain;
  try {
    const email = await renderCampaignEmail(ctx.renderer, {
      content: { ...request.content, subject: `[Test] ${request.content.subject}` },
      contact,
      unsubscribeUrl: link,
      messageId: `<test-${randomUUID()}@${domain}>`,
    });
    await ctx.mailer.send(email);
    ctx.logger.info({ campaignId: request.campaign_id, accountId: request.account_id }, 'campaign test email sent');
    return 'sent';
  } catch (error) {
    if (!(error instanceof RenderError) && !(error instanceof SmtpFailure)) throw error;
    ctx.logger.warn({ campaignId: request.campaign_id, err: error }, 'campaign test email failed');
    return 'failed';
  }
}
