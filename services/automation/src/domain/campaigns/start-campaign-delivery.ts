import { withTransaction, type campaignSendRequestedV1, type MessageOf, type Pool } from '@mailer/shared';
import { startDelivery } from '../../data-access/campaign-deliveries.repository';
import type { EmailRenderer } from '../rendering/render-email';

/**
 * Campaigns asked to send: the audience is fixed now, as one ledger row per recipient written in
 * one transaction before any email goes out (a crash leaves all of them or none). A template that
 * does not parse fails the whole delivery up front instead of failing every recipient.
 */
export async function startCampaignDelivery(
  deps: { pool: Pool; renderer: EmailRenderer; mailDomain: string },
  request: MessageOf<typeof campaignSendRequestedV1>,
): Promise<{ recipients: number; templateError?: string }> {
  const templateError = checkTemplates(deps.renderer, request.content);
  const started = await withTransaction(deps.pool, async (client) => {
    const recipients = await startDelivery(
      client,
      {
        campaignId: request.campaign_id,
        accountId: request.account_id,
        content: request.content,
        audience: request.audience,
        ratePerSecond: request.rate_per_second,
      },
      deps.mailDomain,
      templateError,
    );
    return templateError ? { recipients, templateError } : { recipients };
  });
  // The planner's idea of the ledger would otherwise stay at its size before this audience until
  // autovacuum comes by, and it would plan the claims of a 100k send as for a handful of rows.
  // Best effort: the send is committed and goes on with the old statistics if this fails.
  if (started.recipients >= ANALYZE_AFTER_RECIPIENTS) await deps.pool.query('ANALYZE campaign_sends').catch(() => undefined);
  return started;
}

const ANALYZE_AFTER_RECIPIENTS = 1000;

function checkTemplates(renderer: EmailRenderer, content: MessageOf<typeof campaignSendRequestedV1>['content']): string | undefined {
  const parts: Array<[string, string | null, 'html' | 'text']> = [
    ['subject', content.subject, 'text'],
    ['html', content.html, 'html'],
    ['text', content.text, 'text'],
  ];
  for (const [name, source, mode] of parts) {
    if (source === null) continue;
    try {
      renderer.check(source, mode);
    } catch (error) {
      return `template error in ${name}: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return undefined;
}
