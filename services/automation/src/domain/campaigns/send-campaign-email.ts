import { backoffDelay, contactBouncedV1, isDependencyUnavailable, sleep, type CampaignContent, type GroupCommit } from '@mailer/shared';
import { recordCampaignOutcome, type BatchedOutcome, type CampaignSendOutcome, type ClaimedCampaignSend } from '../../data-access/campaign-sends.repository';
import { outboxFact, type OutboxFact } from '../../data-access/outbox.repository';
import { SmtpFailure } from '../../data-access/smtp-mailer';
import { crashPoint } from '../../crash-point';
import { RenderError } from '../rendering/render-email';
import type { SendContext } from '../sending/send-context';
import { whyNotSend } from '../sending/suppression-check';
import { trackHtml } from '../tracking/track-links';
import { campaignUnsubscribeUrl } from './campaign-unsubscribe-link';
import { renderCampaignEmail } from './campaign-email';

interface Attempted {
  outcome: CampaignSendOutcome;
  facts: OutboxFact[];
  bounced: boolean;
  smtpCode?: number | undefined;
}

/**
 * Sends one claimed campaign row: the ledger row exists before the SMTP call and the outcome is
 * committed after it, fenced by the attempt. A crash in between leaves the row claimed; after the
 * lease it is claimed again and re-sent with the same Message-ID (the documented window).
 */
export async function sendCampaignEmail(
  ctx: SendContext,
  send: ClaimedCampaignSend,
  content: CampaignContent,
  batcher: GroupCommit<BatchedOutcome, boolean>,
): Promise<CampaignSendOutcome['state']> {
  if (send.previous_state === 'claimed') {
    ctx.logger.warn({ campaignId: send.campaign_id, contactId: send.contact_id, messageId: send.message_id }, 'campaign claim lease expired; re-sending with the same Message-ID');
  }
  const attempted = await attempt(ctx, send, content);
  for (let retry = 0; ; retry++) {
    try {
      const plain = attempted.facts.length === 0 && !attempted.bounced;
      const recorded = plain
        ? await batcher.add({ id: send.id, attempts: send.attempts, outcome: attempted.outcome })
        : await recordCampaignOutcome(ctx.pool, send, attempted.outcome, attempted.facts, attempted.bounced);
      if (!recorded) ctx.logger.warn({ campaignId: send.campaign_id, messageId: send.message_id }, 'campaign claim was taken over before the outcome was recorded');
      break;
    } catch (error) {
      // The email may be out: wait out a passing database outage rather than lose the outcome.
      if (!isDependencyUnavailable(error) || retry >= 8) throw error;
      await sleep(backoffDelay(retry, 250, 8000));
    }
  }
  crashPoint('after_ledger_commit');
  logOutcome(ctx, send, attempted);
  return attempted.outcome.state;
}

async function attempt(ctx: SendContext, send: ClaimedCampaignSend, content: CampaignContent): Promise<Attempted> {
  // The same pre-send check as workflow emails; a campaign is never transactional.
  const skipped = whyNotSend(send.contact ?? undefined, { transactional: false });
  if (skipped || !send.contact) return { outcome: { state: 'skipped', reason: skipped ?? 'contact unknown' }, facts: [], bounced: false };
  let email;
  try {
    const link = campaignUnsubscribeUrl(ctx, { accountId: send.account_id, contactId: send.contact_id, campaignId: send.campaign_id });
    email = await renderCampaignEmail(ctx.renderer, { content, contact: send.contact, unsubscribeUrl: link, messageId: send.message_id });
    const settings = await ctx.tracking.settings.get(send.account_id);
    const tracked = { accountId: send.account_id, contactId: send.contact_id, campaignId: send.campaign_id, sentAt: Math.floor(Date.now() / 1000) };
    // Only the HTML part: the text part was made from the untracked HTML and keeps the original addresses.
    if (email.html) email = { ...email, html: trackHtml(email.html, tracked, { publicBaseUrl: ctx.publicBaseUrl, secret: ctx.tracking.secret, settings }) };
  } catch (error) {
    if (!(error instanceof RenderError)) throw error;
    return { outcome: { state: 'failed_permanent', reason: `render_failed: ${error.message}` }, facts: [], bounced: false };
  }
  const subject = email.subject;
  try {
    const response = await ctx.mailer.send(email);
    crashPoint('after_smtp_accepted');
    return { outcome: { state: 'sent', smtpResponse: response, subject }, facts: [], bounced: false };
  } catch (error) {
    if (!(error instanceof SmtpFailure)) throw error;
    const attempted = failed(ctx, send, error);
    return { ...attempted, outcome: { ...attempted.outcome, subject } };
  }
}

function failed(ctx: SendContext, send: ClaimedCampaignSend, error: SmtpFailure): Attempted {
  const smtpCode = error.smtpCode;
  if (error.kind === 'bounce') {
    const bounce = outboxFact(contactBouncedV1, {
      account_id: send.account_id,
      email: send.contact!.email,
      reason: `bounced: ${error.message}`,
      occurred_at: new Date().toISOString(),
    });
    return { outcome: { state: 'failed_permanent', reason: `bounced: ${error.message}`, error: error.message }, facts: [bounce], bounced: true, smtpCode };
  }
  if (error.kind === 'permanent') {
    return { outcome: { state: 'failed_permanent', reason: `rejected: ${error.message}`, error: error.message }, facts: [], bounced: false, smtpCode };
  }
  if (send.attempts >= ctx.maxAttempts) {
    const reason = `retries_exhausted after ${send.attempts} attempts: ${error.message}`;
    return { outcome: { state: 'failed_permanent', reason, error: error.message, temporaryFailure: true }, facts: [], bounced: false, smtpCode };
  }
  const retryInMs = backoffDelay(send.attempts - 1, ctx.retryInitialMs, ctx.retryMaxMs);
  return { outcome: { state: 'failed_transient', reason: `retry in ${retryInMs} ms: ${error.message}`, error: error.message, retryInMs }, facts: [], bounced: false, smtpCode };
}

/** One line per outcome, ids only (never the address), like the workflow path's. */
function logOutcome(ctx: SendContext, send: ClaimedCampaignSend, attempted: Attempted): void {
  const fields = {
    campaignId: send.campaign_id,
    accountId: send.account_id,
    contactId: send.contact_id,
    messageId: send.message_id,
    attempt: send.attempts,
    outcome: attempted.bounced ? 'bounced' : attempted.outcome.state,
    reason: attempted.outcome.reason,
    smtpCode: attempted.smtpCode,
  };
  if (attempted.outcome.state === 'sent' || attempted.outcome.state === 'skipped') ctx.logger.info(fields, `campaign email ${attempted.outcome.state}`);
  else ctx.logger.warn(fields, `campaign email ${attempted.outcome.state === 'failed_transient' ? 'not accepted; retry scheduled' : 'failed'}`);
}
