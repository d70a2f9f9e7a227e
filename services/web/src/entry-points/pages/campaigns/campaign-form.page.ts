import type { CampaignDetail } from '../../../data-access/campaigns.client';
import type { Segment } from '../../../data-access/segments.client';
import { html } from '../html';
import { csrfField, page, type Viewer } from '../layout';
import { textArea, textField } from '../workflows/form-fields';

/** The compose form as typed (strings), so a refused form comes back unchanged. */
export interface CampaignForm {
  name: string;
  title: string;
  preview_text: string;
  html: string;
  text: string;
  tags: string;
  match: 'any' | 'all';
  /** The segment's id as the select sends it; empty: the tags choose. */
  segment: string;
}

export const emptyCampaignForm = (): CampaignForm => ({ name: '', title: '', preview_text: '', html: '', text: '', tags: '', match: 'any', segment: '' });

export const formOfCampaign = (campaign: CampaignDetail): CampaignForm => ({
  name: campaign.name,
  title: campaign.subject,
  preview_text: campaign.preview_text,
  html: campaign.html,
  text: campaign.text ?? '',
  tags: campaign.audience.tags.join(', '),
  match: campaign.audience.match,
  segment: campaign.audience.segment_id ? String(campaign.audience.segment_id) : '',
});

/** Compose (new) or edit (a draft): name, subject, preview text, HTML, optional text, audience tags. */
export function campaignFormPage(options: { viewer: Viewer; form: CampaignForm; segments: Segment[]; errors?: Record<string, string[]>; campaign?: CampaignDetail | undefined }): string {
  const { form, campaign } = options;
  const errors = options.errors ?? {};
  const general = errors.form ?? [];
  return page({
    title: campaign ? `Edit ${campaign.name}` : 'New campaign',
    section: 'campaigns',
    viewer: options.viewer,
    body: html`<p><a href="${campaign ? `/app/campaigns/${campaign.id}` : '/app/campaigns'}">← ${campaign ? campaign.name : 'Campaigns'}</a></p>
<h1>${campaign ? 'Edit campaign' : 'New campaign'}</h1>
${Object.keys(errors).length > 0 ? html`<div class="notice error" role="alert"><p>The campaign was not saved; the problems are shown next to the fields.</p>${general.length ? html`<ul>${general.map((m) => html`<li>${m}</li>`)}</ul>` : ''}</div>` : ''}
<form method="post" action="${campaign ? `/app/campaigns/${campaign.id}` : '/app/campaigns'}" class="card" novalidate>${csrfField(options.viewer)}
${textField({ id: 'c-name', name: 'name', label: 'Name', value: form.name, errors: errors.name, required: true, maxlength: 255, hint: 'For you; recipients do not see it.' })}
${textField({ id: 'c-title', name: 'title', label: 'Subject', value: form.title, errors: errors.title, required: true, maxlength: 255, hint: 'Liquid works here too: Hello {{ first_name | default: "there" }}.' })}
${textField({ id: 'c-preview-text', name: 'preview_text', label: 'Preview text', value: form.preview_text, errors: errors.preview_text, maxlength: 1000, hint: 'Shown by mail clients beside the subject; hidden in the email.' })}
${textArea({ id: 'c-html', name: 'html', label: 'HTML body', value: form.html, errors: errors.html, rows: 10 })}
${textArea({ id: 'c-text', name: 'text', label: 'Text body (optional)', value: form.text, errors: errors.text_body, rows: 4, hint: 'Made from the HTML when empty.' })}
<fieldset class="row-group"><legend>Audience</legend>
<p class="hint">Subscribed contacts that are not bounced or suppressed: the members of a segment, or narrowed with tags (leave both empty for all of them).</p>
<div class="field"><label for="c-segment">Segment</label>
<select id="c-segment" name="segment"${errors.audience_segment_id ? html` aria-invalid="true" aria-describedby="c-segment-error"` : ''}>
<option value="">No segment: use the tags below</option>
${options.segments.map((segment) => html`<option value="${segment.id}"${String(segment.id) === form.segment ? html` selected` : ''}>${segment.name}</option>`)}
</select>
<p class="hint">A segment, when chosen, decides the recipients and the tags are ignored. <a href="/app/segments">Manage segments</a></p>
${errors.audience_segment_id ? html`<p class="field-error" id="c-segment-error">${errors.audience_segment_id.join(' ')}</p>` : ''}</div>
${textField({ id: 'c-tags', name: 'tags', label: 'Tags (comma separated)', value: form.tags, errors: errors.audience_tags })}
<div class="field inline"><input id="c-match-any" type="radio" name="match" value="any"${form.match === 'any' ? html` checked` : ''}><label for="c-match-any">Any of the tags</label></div>
<div class="field inline"><input id="c-match-all" type="radio" name="match" value="all"${form.match === 'all' ? html` checked` : ''}><label for="c-match-all">All of the tags</label></div>
</fieldset>
<button type="submit">${campaign ? 'Save draft' : 'Create draft'}</button>
</form>`,
  });
}
