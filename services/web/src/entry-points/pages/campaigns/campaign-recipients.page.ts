import type { CampaignRecipient } from '../../../data-access/automation.client';
import type { CampaignDetail } from '../../../data-access/campaigns.client';
import { html } from '../html';
import { csrfField, page, type Viewer } from '../layout';
import { describeReason, outcomeLabel, outcomeTone } from '../activity/describe-outcome';

const OUTCOMES = [
  ['', 'Every outcome'],
  ['sent', 'Sent'],
  ['failed', 'Failed'],
  ['skipped', 'Skipped'],
  ['pending', 'Not sent yet'],
] as const;

const row = (recipient: CampaignRecipient) => html`<tr>
<td>${recipient.email ?? `Contact #${recipient.contact_id}`}</td>
<td><span class="badge ${outcomeTone(recipient.outcome)}">${recipient.outcome === 'pending' ? 'Not sent yet' : outcomeLabel(recipient.outcome)}</span></td>
<td>${recipient.outcome === 'pending' ? '—' : describeReason(recipient)}${recipient.retried ? html`<div class="hint">retried once</div>` : ''}</td>
<td>${recipient.attempts} <span class="hint">${recipient.attempts === 1 ? 'attempt' : 'attempts'}</span></td>
</tr>`;

/** Who got the campaign, who did not and why; "retry failed" when the service allows it. */
export function campaignRecipientsPage(options: {
  viewer: Viewer;
  campaign: CampaignDetail;
  outcome: string;
  recipients: CampaignRecipient[];
  nextHref: string | undefined;
  errors?: string[] | undefined;
}): string {
  const { campaign } = options;
  return page({
    title: `Recipients of ${campaign.name}`,
    section: 'campaigns',
    viewer: options.viewer,
    body: html`<p><a href="/app/campaigns/${campaign.id}">← ${campaign.name}</a></p>
<h1>Recipients</h1>
<form method="get" action="/app/campaigns/${campaign.id}/recipients" class="card filters">
<div class="field"><label for="recipient-outcome">Outcome</label><select id="recipient-outcome" name="outcome">${OUTCOMES.map(
      ([value, label]) => html`<option value="${value}"${value === options.outcome ? html` selected` : ''}>${label}</option>`,
    )}</select></div>
<button type="submit">Filter</button>
</form>
${options.errors ? html`<div class="notice error" role="alert">${options.errors.join(' ')}</div>` : ''}
${campaign.allowed_actions.includes('retry_failed') && campaign.emails_failed > 0
  ? html`<form method="post" action="/app/campaigns/${campaign.id}/retry-failed" class="actions">${csrfField(options.viewer)}
<button type="submit" class="secondary">Retry failed</button><span class="hint">Sends again, once, to recipients whose failure was temporary.</span></form>`
  : ''}
<div class="card">
${options.recipients.length === 0
  ? html`<p>No recipients with this outcome.</p>`
  : html`<div class="table-wrap"><table class="stack-table recipients">
<thead><tr><th scope="col">Recipient</th><th scope="col">Outcome</th><th scope="col">Why</th><th scope="col">Attempts</th></tr></thead>
<tbody>${options.recipients.map(row)}</tbody></table></div>`}
${options.nextHref ? html`<nav class="pager" aria-label="Pages"><a href="${options.nextHref}" rel="next">More</a></nav>` : ''}
</div>`,
  });
}
