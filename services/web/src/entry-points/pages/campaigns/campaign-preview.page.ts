import type { RenderedSample } from '../../../data-access/automation.client';
import type { CampaignDetail } from '../../../data-access/campaigns.client';
import { html } from '../html';
import { page, type Viewer } from '../layout';
import { renderedEmail, textField } from '../workflows/form-fields';

/** The campaign's email rendered for a sample contact (their details, the preheader, the unsubscribe link). */
export function campaignPreviewPage(options: { viewer: Viewer; campaign: CampaignDetail; contactEmail: string; sample?: RenderedSample | undefined; errors?: string[] | undefined }): string {
  const { campaign } = options;
  return page({
    title: `Preview ${campaign.name}`,
    section: 'campaigns',
    viewer: options.viewer,
    body: html`<p><a href="/app/campaigns/${campaign.id}">← ${campaign.name}</a></p>
<h1>Preview</h1>
<div class="card">
<form method="get" action="/app/campaigns/${campaign.id}/preview">
${textField({ id: 'preview-contact', name: 'contact', label: 'Sample contact email', value: options.contactEmail, type: 'email', errors: options.errors, hint: 'Rendered with this contact’s details; an unknown address shows what a contact without details gets.' })}
<button type="submit" class="secondary">Preview</button>
</form>
</div>
${options.sample
  ? html`<div class="card">${options.sample.known_contact ? '' : html`<p class="hint">No contact has this address: shown without personal details.</p>`}${renderedEmail(options.sample, `/app/campaigns/${campaign.id}/preview/frame?contact=${encodeURIComponent(options.contactEmail)}`)}</div>`
  : ''}`,
  });
}
