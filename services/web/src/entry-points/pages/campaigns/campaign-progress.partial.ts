import type { CampaignDetail, CampaignSummary } from '../../../data-access/campaigns.client';
import { html, type SafeHtml } from '../html';
import { csrfField, type Viewer } from '../layout';

export const STATUS_LABEL: Record<CampaignSummary['status'], string> = {
  draft: 'Draft',
  approved: 'Approved',
  scheduled: 'Scheduled',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
};

const TONE: Record<CampaignSummary['status'], string> = { draft: '', approved: 'subscribed', scheduled: 'expired', sending: 'expired', sent: 'active', failed: 'failed' };

/** Still changing on its own: the page polls these (every 2 s) for live counts. */
export const inFlight = (campaign: Pick<CampaignSummary, 'status'>) => campaign.status === 'sending' || campaign.status === 'scheduled';

/** Before the send starts: the audience is still a rule over the contacts, not a fixed list of recipients. */
export const notStarted = (campaign: Pick<CampaignSummary, 'status'>) =>
  campaign.status === 'draft' || campaign.status === 'approved' || campaign.status === 'scheduled';

export function statusBadge(campaign: Pick<CampaignSummary, 'status'> & { paused?: boolean }): SafeHtml {
  const label = campaign.paused && campaign.status === 'sending' ? 'Paused' : STATUS_LABEL[campaign.status];
  return html`<span class="badge ${TONE[campaign.status]}" data-status="${campaign.status}">${label}</span>`;
}

/** Sent + failed + skipped over the fixed audience, as a bar and in words. */
export function progressOf(campaign: CampaignSummary): SafeHtml {
  const total = campaign.total_recipients;
  const done = campaign.emails_sent + campaign.emails_failed;
  const percent = total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0;
  if (notStarted(campaign)) return html`<span class="hint">Not started</span>`;
  return html`<progress max="100" value="${percent}" aria-label="Progress of ${campaign.name}">${percent}%</progress>
<span class="hint">${campaign.emails_sent} sent · ${campaign.emails_failed} failed · ${total} recipients</span>`;
}

/** Button labels of the lifecycle actions the campaigns service says are allowed now. */
const ACTION_BUTTONS: Array<{ allowed: string; path: string; label: string; danger?: boolean }> = [
  { allowed: 'approve', path: 'approve', label: 'Approve' },
  { allowed: 'return_to_draft', path: 'return-to-draft', label: 'Back to draft' },
  { allowed: 'send_now', path: 'send', label: 'Send now' },
  { allowed: 'pause', path: 'pause', label: 'Pause' },
  { allowed: 'resume', path: 'resume', label: 'Resume' },
  { allowed: 'retry_failed', path: 'retry-failed', label: 'Retry failed' },
  { allowed: 'cancel', path: 'cancel', label: 'Cancel', danger: true },
];

function actions(campaign: CampaignDetail, viewer: Viewer): SafeHtml {
  const buttons = ACTION_BUTTONS.filter((action) => campaign.allowed_actions.includes(action.allowed)).filter(
    // Pause and resume are both "allowed" from sending; the paused flag says which applies. Retry
    // is offered only when some recipient failed.
    (action) =>
      action.allowed === 'pause' ? !campaign.paused : action.allowed === 'resume' ? campaign.paused : action.allowed === 'retry_failed' ? campaign.emails_failed > 0 : true,
  );
  return html`<div class="actions">
${campaign.allowed_actions.includes('edit') ? html`<a class="button secondary" href="/app/campaigns/${campaign.id}/edit">Edit</a>` : ''}
${buttons.map(
  (action) => html`<form method="post" action="/app/campaigns/${campaign.id}/${action.path}">${csrfField(viewer)}<button type="submit"${action.danger ? html` class="danger"` : action.path === 'send' || action.path === 'approve' ? '' : html` class="secondary"`}>${action.label}</button></form>`,
)}
</div>`;
}

/**
 * The live part of a campaign's page: the actions allowed now, status, counts and progress. While the campaign is in
 * flight it asks for itself again every 2 s (htmx); without JavaScript, reloading shows the same.
 */
export function campaignProgressPartial(campaign: CampaignDetail, viewer: Viewer): SafeHtml {
  const poll = inFlight(campaign) ? html` hx-get="/app/campaigns/${campaign.id}/progress" hx-trigger="every 2s" hx-swap="outerHTML"` : html``;
  return html`<section id="campaign-progress" aria-live="polite"${poll}>
${actions(campaign, viewer)}
<div class="card">
<h2>Status: ${statusBadge(campaign)}</h2>
${campaign.failure_reason ? html`<p class="field-error">Stopped: ${campaign.failure_reason}</p>` : ''}
${campaign.send_at && campaign.status === 'scheduled' ? html`<p>Starts at ${campaign.send_at.replace('T', ' ').slice(0, 16)} UTC.</p>` : ''}
${progressOf(campaign)}
${notStarted(campaign) ? '' : html`<dl class="counts">
<dt>Recipients</dt><dd data-count="total">${campaign.total_recipients}</dd>
<dt>Sent</dt><dd data-count="sent">${campaign.emails_sent}</dd>
<dt>Failed</dt><dd data-count="failed">${campaign.emails_failed}</dd>
<dt>Unsubscribed</dt><dd>${campaign.unsubscribes_count}</dd>
${campaign.sent_at ? html`<dt>Finished</dt><dd>${campaign.sent_at.replace('T', ' ').slice(0, 16)} UTC</dd>` : ''}
</dl>`}
${campaign.status === 'draft' || campaign.status === 'approved' ? '' : html`<p><a href="/app/campaigns/${campaign.id}/recipients">Per-recipient outcomes</a></p>`}
</div>
</section>`;
}
