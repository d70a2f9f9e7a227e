import type { ActivityEntry, ActivityFilter, WorkflowSummary } from '../../../data-access/automation.client';
import { html } from '../html';
import { page, type Viewer } from '../layout';
import { describeReason, outcomeLabel, outcomeTone } from './describe-outcome';

const OUTCOME_FILTERS = [
  ['', 'Any outcome'],
  ['sent', 'Sent'],
  ['failed', 'Failed or bounced'],
  ['skipped', 'Skipped or not entered'],
  ['retrying', 'Retrying'],
  ['enrolled', 'Entered a workflow'],
  ['unsubscribed', 'Unsubscribed'],
] as const;

const minute = (iso: string) => iso.replace('T', ' ').slice(0, 19) + ' UTC';

function entryRow(entry: ActivityEntry) {
  const what = entry.campaign_id
    ? html`<a href="/app/campaigns/${entry.campaign_id}">Campaign #${entry.campaign_id}</a>`
    : entry.workflow_id
      ? html`<a href="/app/workflows/${entry.workflow_id}">${entry.workflow ?? `Workflow #${entry.workflow_id}`}</a>${entry.step_id ? html` · ${entry.step_id}` : ''}`
      : html`—`;
  return html`<tr>
<td>${minute(entry.at)}</td>
<td>${entry.email ? html`<a href="/app/activity?email=${encodeURIComponent(entry.email)}">${entry.email}</a>` : entry.contact_id ? `Contact #${entry.contact_id}` : '—'}</td>
<td>${what}</td>
<td><span class="badge ${outcomeTone(entry.outcome)}">${outcomeLabel(entry.outcome)}</span></td>
<td>${describeReason(entry)}</td>
</tr>`;
}

/** /app/activity: what happened to whom, newest first, with the reason for every skip and failure. */
export function activityPage(options: {
  viewer: Viewer;
  filter: ActivityFilter;
  entries: ActivityEntry[];
  workflows: WorkflowSummary[];
  nextHref: string | undefined;
  firstHref: string | undefined;
  errors?: string[] | undefined;
}): string {
  const { filter } = options;
  return page({
    title: 'Activity',
    section: 'activity',
    viewer: options.viewer,
    body: html`<h1>Activity</h1>
<form method="get" action="/app/activity" class="card filters" role="search">
<div class="field"><label for="activity-email">Contact email</label><input id="activity-email" name="email" type="search" value="${filter.email ?? ''}"></div>
<div class="field"><label for="activity-workflow">Workflow</label><select id="activity-workflow" name="workflow"><option value="">Any workflow</option>${options.workflows.map(
      (workflow) => html`<option value="${workflow.id}"${String(workflow.id) === filter.workflow ? html` selected` : ''}>${workflow.name}</option>`,
    )}</select></div>
<div class="field"><label for="activity-campaign">Campaign id</label><input id="activity-campaign" name="campaign" type="text" inputmode="numeric" value="${filter.campaign ?? ''}"></div>
<div class="field"><label for="activity-outcome">Outcome</label><select id="activity-outcome" name="outcome">${OUTCOME_FILTERS.map(
      ([value, label]) => html`<option value="${value}"${value === (filter.outcome ?? '') ? html` selected` : ''}>${label}</option>`,
    )}</select></div>
<button type="submit">Filter</button>
</form>
${options.errors ? html`<div class="notice error" role="alert">${options.errors.join(' ')}</div>` : ''}
<div class="card">
${options.entries.length === 0
  ? html`<p>Nothing matches.</p>`
  : html`<div class="table-wrap"><table class="stack-table activity">
<caption class="hint">Newest first</caption>
<thead><tr><th scope="col">When</th><th scope="col">Contact</th><th scope="col">Workflow or campaign</th><th scope="col">Outcome</th><th scope="col">Why</th></tr></thead>
<tbody>${options.entries.map(entryRow)}</tbody></table></div>`}
<nav class="pager" aria-label="Pages">${options.firstHref ? html`<a href="${options.firstHref}">Newest</a>` : ''}${options.nextHref ? html`<a href="${options.nextHref}" rel="next">Older</a>` : ''}</nav>
</div>`,
  });
}
