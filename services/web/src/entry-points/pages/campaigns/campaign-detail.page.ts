import type { CampaignDetail, CampaignReport } from '../../../data-access/campaigns.client';
import type { Segment } from '../../../data-access/segments.client';
import { html } from '../html';
import { csrfField, page, type Viewer } from '../layout';
import { textField } from '../workflows/form-fields';
import { campaignPerformance } from './campaign-performance';
import { campaignProgressPartial, inFlight } from './campaign-progress.partial';

/** Who the campaign goes to, in words: a segment by name, or the tag rule. */
export function audienceWords(campaign: CampaignDetail, segment: Pick<Segment, 'id' | 'name'> | undefined) {
  if (campaign.audience.segment_id) return html`Members of the segment <a href="/app/segments/${campaign.audience.segment_id}">${segment?.name ?? `#${campaign.audience.segment_id}`}</a>`;
  const tags = campaign.audience.tags;
  return html`${tags.length === 0 ? 'All subscribed contacts' : `Contacts with ${campaign.audience.match} of: ${tags.join(', ')}`}`;
}

/** A campaign: live status and counts, what is allowed now, audience, preview, test send, schedule. */
export function campaignDetailPage(options: {
  viewer: Viewer;
  campaign: CampaignDetail;
  /** Contacts the audience rule selects now; only before the send starts (afterwards the progress shows the recipients). */
  audienceCount: number | undefined;
  /** The audience's segment, when it is one. */
  segment?: Pick<Segment, 'id' | 'name'> | undefined;
  /** Engagement figures, once the send has started. */
  /** null: the campaign has started but its figures could not be read now (the rest of the page still shows). */
  report?: CampaignReport | null | undefined;
  notice?: string | undefined;
  errors?: Record<string, string[]> | undefined;
  testTo?: string;
}): string {
  const { campaign, viewer } = options;
  const errors = options.errors ?? {};
  return page({
    title: campaign.name,
    section: 'campaigns',
    viewer,
    body: html`<p><a href="/app/campaigns">← Campaigns</a></p>
<h1>${campaign.name}</h1>
${options.notice ? html`<div class="notice" role="status">${options.notice}</div>` : ''}
${errors.form ? html`<div class="notice error" role="alert">${errors.form.join(' ')}</div>` : ''}
${campaignProgressPartial(campaign, viewer)}
${options.report ? campaignPerformance(options.report, inFlight(campaign) ? { campaignId: campaign.id } : undefined) : options.report === null ? html`<section class="card" id="performance"><h2>Performance</h2><p class="hint">The figures cannot be read right now; reload the page in a moment.</p></section>` : ''}
<div class="card">
<h2>Content</h2>
<dl>
<dt>Subject</dt><dd>${campaign.subject}</dd>
<dt>Preview text</dt><dd>${campaign.preview_text || '—'}</dd>
<dt>From</dt><dd>${campaign.from_address ? `${campaign.from_name ?? ''} <${campaign.from_address}>` : 'The account’s sender'}</dd>
<dt>Audience</dt><dd>${audienceWords(campaign, options.segment)}</dd>
${options.audienceCount === undefined ? '' : html`<dt>Recipients now</dt><dd data-audience-count>${options.audienceCount}</dd>`}
</dl>
<p><a class="button secondary" href="/app/campaigns/${campaign.id}/preview">Preview for a contact</a></p>
</div>
${campaign.allowed_actions.includes('test')
  ? html`<div class="card"><h2>Send a test</h2>
<form method="post" action="/app/campaigns/${campaign.id}/test">${csrfField(viewer)}
${textField({ id: 'test-to', name: 'to', label: 'Send to', value: options.testTo ?? '', type: 'email', errors: errors.to, hint: 'One email of the current content; the subject starts with [Test].' })}
<button type="submit" class="secondary">Send test</button></form></div>`
  : ''}
${campaign.allowed_actions.includes('schedule')
  ? html`<div class="card"><h2>Schedule</h2>
<form method="post" action="/app/campaigns/${campaign.id}/send">${csrfField(viewer)}
${textField({ id: 'send-at', name: 'send_at', label: 'Send at (UTC)', value: '', type: 'datetime-local', errors: errors.send_at, hint: 'Starts within a second or two of this time.' })}
<button type="submit" class="secondary">Schedule</button></form></div>`
  : ''}`,
  });
}
