import type { ContactHistory, ContactRun, HistoryEntry } from '../../../data-access/account-figures.client';
import type { Contact } from '../../../data-access/contacts.client';
import type { ContactEmail } from '../../../data-access/engagement.client';
import { contactEmailsCard } from './contact-emails';
import { html, type SafeHtml } from '../html';
import { csrfField, page, type Viewer } from '../layout';

export const contactName = (contact: Contact) => [contact.first_name, contact.last_name].filter(Boolean).join(' ');

export const contactStatus = (contact: Contact) =>
  contact.bounced
    ? html`<span class="badge bounced">Bounced</span>`
    : contact.subscribed
      ? html`<span class="badge subscribed">Subscribed</span>`
      : html`<span class="badge">Unsubscribed</span>`;

const minute = (iso: string) => `${iso.replace('T', ' ').slice(0, 16)} UTC`;

/** What an entry of the delivery log or the campaign ledger means, in words. */
const OUTCOME_WORDS: Record<string, string> = {
  sent: 'Sent',
  failed: 'Failed',
  failed_permanent: 'Failed',
  bounced: 'Bounced',
  skipped: 'Not sent',
  retry_scheduled: 'Retry scheduled',
  reconciled: 'Re-sent after a crash',
  enrolled: 'Started workflow',
  not_matched: 'Event did not match',
  already_enrolled: 'Already in workflow',
  unsubscribed: 'Unsubscribed',
  branched: 'Branched',
};

const STEP_WORDS: Record<string, string> = {
  pending: 'waiting',
  claimed: 'sending',
  sent: 'sent',
  failed_transient: 'retrying',
  failed_permanent: 'failed',
  skipped: 'not sent',
  waiting: 'waiting for a click',
  branched: 'branched',
};

const outcomeBadge = (outcome: string) => {
  const kind = outcome === 'sent' ? 'subscribed' : ['failed', 'failed_permanent', 'bounced'].includes(outcome) ? 'bounced' : '';
  return html`<span class="badge ${kind}">${OUTCOME_WORDS[outcome] ?? outcome}</span>`;
};

function entryRow(entry: HistoryEntry): SafeHtml {
  const what = entry.source === 'c' ? html`Campaign <a href="/app/campaigns/${entry.campaign_id ?? ''}">#${entry.campaign_id ?? ''}</a>` : html`${entry.workflow ?? 'Workflow'}${entry.step_id ? html` · step ${entry.step_id}` : ''}`;
  return html`<tr>
<td data-label="When">${minute(entry.at)}</td>
<td data-label="What">${what}</td>
<td data-label="Outcome">${outcomeBadge(entry.outcome)}</td>
<td data-label="Details">${entry.reason ?? entry.smtp_response ?? '—'}</td>
</tr>`;
}

function runItem(run: ContactRun): SafeHtml {
  return html`<li><strong>${run.workflow}</strong>, started by the event <code>${run.event_name}</code> on ${minute(run.started_at)}
${run.steps.length ? html`<ul>${run.steps.map((step) => html`<li>Step ${step.step_id}: ${STEP_WORDS[step.state] ?? step.state}${step.reason ? html` (${step.reason})` : ''}</li>`)}</ul>` : ''}</li>`;
}

function tagList(contact: Contact, viewer: Viewer): SafeHtml {
  if (contact.tags.length === 0) return html`—`;
  return html`<ul class="tags" aria-label="Tags">${contact.tags.map(
    (tag) => html`<li class="tag"><a class="badge" href="/app/contacts?tag=${encodeURIComponent(tag)}">${tag}</a>
<form method="post" action="/app/contacts/${contact.id}/tags/remove">${csrfField(viewer)}<input type="hidden" name="tag" value="${tag}">
<button type="submit" class="link" aria-label="Remove tag ${tag}">×</button></form></li>`,
  )}</ul>`;
}

/** One contact: fields, tags (each removable), properties, the emails they were sent (subject, opens, clicks), their workflow runs and every event decision. */
export function contactPage(options: { contact: Contact; history: ContactHistory; emails: ContactEmail[]; viewer: Viewer; notice?: string | undefined }): string {
  const { contact, history, viewer } = options;
  const properties = Object.entries(contact.custom_properties);
  return page({
    title: contact.email,
    viewer,
    section: 'contacts',
    body: html`<p><a href="/app/contacts">All contacts</a></p>
${options.notice ? html`<div class="notice" role="status">${options.notice}</div>` : ''}
<div class="card"><h1>${contact.email}</h1>
<dl>
<dt>Name</dt><dd>${contactName(contact) || '—'}</dd>
<dt>Status</dt><dd>${contactStatus(contact)}</dd>
<dt>Tags</dt><dd>${tagList(contact, viewer)}</dd>
<dt>Source</dt><dd>${contact.source ?? '—'}</dd>
<dt>Added</dt><dd>${minute(contact.created_at)}</dd>
</dl>
<div class="actions"><a class="button" href="/app/contacts/${contact.id}/edit">Edit</a>
${contact.subscribed ? html`<form method="post" action="/app/contacts/${contact.id}/unsubscribe">${csrfField(viewer)}<button type="submit" class="secondary">Unsubscribe</button></form>` : ''}
<a class="button danger" href="/app/contacts/${contact.id}/delete">Delete</a></div>
</div>
<div class="card"><h2>Custom properties</h2>
${properties.length === 0 ? html`<p>None.</p>` : html`<dl>${properties.map(([key, value]) => html`<dt>${key}</dt><dd>${String(value)}</dd>`)}</dl>`}
</div>
${contactEmailsCard(options.emails)}
<div class="card" id="runs"><h2>Workflow runs</h2>
${history.runs.length === 0 ? html`<p>No event has started a workflow for this contact.</p>` : html`<ul class="runs">${history.runs.map(runItem)}</ul>`}
</div>
<div class="card" id="activity"><h2>Events and emails</h2>
${history.entries.length === 0
  ? html`<p>Nothing has happened for this contact yet.</p>`
  : html`<div class="table-wrap"><table class="stack-table">
<caption class="visually-hidden">Every event decision and email for this contact, newest first</caption>
<thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Outcome</th><th scope="col">Details</th></tr></thead>
<tbody>${history.entries.map(entryRow)}</tbody></table></div>`}
</div>`,
  });
}
