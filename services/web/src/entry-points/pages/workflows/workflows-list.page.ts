import type { WorkflowSummary } from '../../../data-access/automation.client';
import { html } from '../html';
import { csrfField, page, type Viewer } from '../layout';

const row = (workflow: WorkflowSummary, viewer: Viewer) => html`<tr data-workflow-id="${workflow.id}">
<td><a href="/app/workflows/${workflow.id}">${workflow.name}</a><div class="hint">when <code>${workflow.trigger_event}</code> · ${workflow.steps} step${workflow.steps === 1 ? '' : 's'}</div></td>
<td><span class="badge ${workflow.enabled ? 'active' : 'disabled'}">${workflow.enabled ? 'Enabled' : 'Disabled'}</span></td>
<td>${workflow.sent_last_7_days} <span class="hint">sent in 7 days</span></td>
<td class="row-actions"><form method="post" action="/app/workflows/${workflow.id}/${workflow.enabled ? 'disable' : 'enable'}">${csrfField(viewer)}<input type="hidden" name="back" value="list">
<button type="submit" class="secondary" aria-label="${workflow.enabled ? 'Disable' : 'Enable'} ${workflow.name}">${workflow.enabled ? 'Disable' : 'Enable'}</button></form></td>
</tr>`;

/** /app/workflows: every workflow with its status and emails sent in the last 7 days; import a file. */
export function workflowsListPage(options: { viewer: Viewer; workflows: WorkflowSummary[]; notice?: string | undefined; importErrors?: string[] | undefined }): string {
  const { viewer, workflows } = options;
  return page({
    title: 'Workflows',
    section: 'workflows',
    viewer,
    body: html`<h1>Workflows</h1>
${options.notice ? html`<div class="notice" role="status">${options.notice}</div>` : ''}
<div class="actions"><a class="button" href="/app/workflows/new">New workflow</a></div>
<div class="card">
${workflows.length === 0
  ? html`<p>No workflows yet. Create one, or import a workflow file below.</p>`
  : html`<div class="table-wrap"><table class="stack-table">
<caption class="hint">Workflows of this account, by name</caption>
<thead><tr><th scope="col">Workflow</th><th scope="col">Status</th><th scope="col">Sent (7 days)</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${workflows.map((workflow) => row(workflow, viewer))}</tbody></table></div>`}
</div>
<div class="card">
<h2>Import a workflow file</h2>
<p class="hint">The JSON format of the operator CLI (one workflow or a list). A workflow with a name that already exists is replaced; if anything is wrong, nothing is imported.</p>
${options.importErrors ? html`<div class="notice error" role="alert"><p>Nothing was imported:</p><ul>${options.importErrors.map((message) => html`<li>${message}</li>`)}</ul></div>` : ''}
<form method="post" action="/app/workflows/import" enctype="multipart/form-data">${csrfField(viewer)}
<div class="field"><label for="workflow-file">Workflow file (.json)</label>
<input id="workflow-file" name="file" type="file" accept="application/json,.json" required></div>
<button type="submit">Import</button>
</form>
</div>`,
  });
}
