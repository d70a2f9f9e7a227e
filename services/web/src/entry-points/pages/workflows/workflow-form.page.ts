import type { StoredWorkflow } from '../../../data-access/automation.client';
import { html, type SafeHtml } from '../html';
import { csrfField, page, type Viewer } from '../layout';
import { fieldMessages, invalidAttrs, textArea, textField } from './form-fields';
import { CONDITION_OPS, withSpareRows, type FieldErrors, type StepRow, type WorkflowForm } from './workflow-form';
import type { StepStats } from '../../../data-access/engagement.client';
import { stepStatsCard } from './step-stats';

const OP_LABELS: Record<(typeof CONDITION_OPS)[number], string> = {
  eq: 'equals',
  neq: 'does not equal',
  gt: 'greater than',
  gte: 'at least',
  lt: 'less than',
  lte: 'at most',
  exists: 'is present',
};

function conditionRow(condition: WorkflowForm['conditions'][number], index: number, errors: FieldErrors): SafeHtml {
  const id = (part: string) => `cond-${index}-${part}`;
  const err = (part: string) => errors[`cond_${index}_${part}`];
  return html`<fieldset class="row-group"><legend>Condition ${index + 1}</legend>
<div class="field"><label for="${id('property')}">Event property</label>
<input id="${id('property')}" name="cond_${index}_property" type="text" maxlength="100" value="${condition.property}"${invalidAttrs(id('property'), err('property'))}>${fieldMessages(id('property'), err('property'))}</div>
<div class="field"><label for="${id('op')}">Test</label>
<select id="${id('op')}" name="cond_${index}_op"${invalidAttrs(id('op'), err('op'))}>${CONDITION_OPS.map(
    (op) => html`<option value="${op}"${op === condition.op ? html` selected` : ''}>${OP_LABELS[op]}</option>`,
  )}</select>${fieldMessages(id('op'), err('op'))}</div>
<div class="field"><label for="${id('value')}">Value</label>
<input id="${id('value')}" name="cond_${index}_value" type="text" value="${condition.value}"${invalidAttrs(id('value'), err('value'))}>${fieldMessages(id('value'), err('value'))}</div>
</fieldset>`;
}

function stepRow(step: StepRow, index: number, errors: FieldErrors, saved: StoredWorkflow | undefined): SafeHtml {
  const id = (part: string) => `step-${index}-${part}`;
  const err = (part: string) => errors[`step_${index}_${part}`];
  const savedEmail = saved?.definition.steps.find((candidate) => candidate.id === step.id && candidate.type === 'email');
  return html`<fieldset class="row-group"><legend>Step ${index + 1}</legend>
<div class="field"><label for="${id('type')}">Kind</label>
<select id="${id('type')}" name="step_${index}_type"><option value="email"${step.type === 'email' ? html` selected` : ''}>Send an email</option>
<option value="wait"${step.type === 'wait' ? html` selected` : ''}>Wait</option>
<option value="branch"${step.type === 'branch' ? html` selected` : ''}>Branch on a click</option></select></div>
${textField({ id: id('id'), name: `step_${index}_id`, label: 'Step id', value: step.id, errors: err('id'), hint: 'Letters, digits, dots, dashes; keep it when editing (an email is sent once per contact and step id).' })}
${textField({ id: id('duration'), name: `step_${index}_duration`, label: 'Wait for (wait steps)', value: step.duration, errors: err('duration'), hint: 'A number and a unit: 30m, 12h, 3d.' })}
<fieldset class="branch-fields"><legend>Branch on a click (branch steps)</legend>
${textField({ id: id('clicked'), name: `step_${index}_clicked`, label: 'If the contact clicked the email of step', value: step.clicked, errors: err('clicked'), hint: 'The id of an email step before this one.' })}
${textField({ id: id('within'), name: `step_${index}_within`, label: 'Within', value: step.within, errors: err('within'), hint: 'Of that email going out: 30m, 12h, 2d. The branch decides at once on a click, else when this time is up.' })}
${textField({ id: id('then'), name: `step_${index}_then`, label: 'Then go on at step', value: step.then, errors: err('then'), hint: 'A later step id.' })}
${textField({ id: id('else'), name: `step_${index}_else`, label: 'Otherwise go on at step', value: step.else, errors: err('else'), hint: 'A later step id; empty: the workflow ends for that contact.' })}
</fieldset>
${textField({ id: id('subject'), name: `step_${index}_subject`, label: 'Subject (email steps)', value: step.subject, errors: err('subject') })}
${textArea({ id: id('html'), name: `step_${index}_html`, label: 'HTML body', value: step.html, errors: err('html'), rows: 5, hint: 'Liquid: {{ first_name }}, {{ company | default: "your team" }}.' })}
${textArea({ id: id('text'), name: `step_${index}_text`, label: 'Text body (optional)', value: step.text, errors: err('text'), rows: 3, hint: 'Made from the HTML when empty.' })}
${saved && savedEmail ? html`<p><a href="/app/workflows/${saved.id}/steps/${encodeURIComponent(step.id)}">Preview or test this email</a></p>` : ''}
${fieldMessages(`step-${index}`, errors[`step_${index}_type`])}
</fieldset>`;
}

/** Create or edit a workflow: trigger, conditions, fallbacks and steps, each problem next to its field. */
export function workflowFormPage(options: { viewer: Viewer; form: WorkflowForm; errors?: FieldErrors; saved?: StoredWorkflow | undefined; notice?: string | undefined; stepStats?: StepStats[] | undefined }): string {
  const { viewer, saved } = options;
  const errors = options.errors ?? {};
  const form = withSpareRows(options.form);
  const action = saved ? `/app/workflows/${saved.id}` : '/app/workflows';
  const general = [...(errors.form ?? []), ...(errors.steps ?? []), ...(errors.conditions ?? [])];
  const problemCount = Object.values(errors).reduce((sum, list) => sum + list.length, 0);
  return page({
    title: saved ? `Workflow ${saved.name}` : 'New workflow',
    section: 'workflows',
    viewer,
    body: html`<p><a href="/app/workflows">← Workflows</a></p>
<h1>${saved ? saved.name : 'New workflow'}</h1>
${options.notice ? html`<div class="notice" role="status">${options.notice}</div>` : ''}
${problemCount > 0 ? html`<div class="notice error" role="alert"><p>The workflow was not saved: ${problemCount} problem${problemCount === 1 ? '' : 's'}, shown next to the fields.</p>${general.length > 0 ? html`<ul>${general.map((m) => html`<li>${m}</li>`)}</ul>` : ''}</div>` : ''}
${saved
  ? html`<div class="actions">
<span class="badge ${saved.enabled ? 'active' : 'disabled'}">${saved.enabled ? 'Enabled' : 'Disabled'}</span>
<form method="post" action="/app/workflows/${saved.id}/${saved.enabled ? 'disable' : 'enable'}">${csrfField(viewer)}<button type="submit" class="secondary">${saved.enabled ? 'Disable' : 'Enable'}</button></form>
<a class="button secondary" href="/app/workflows/${saved.id}/export" download>Export file</a>
<a class="button secondary" href="/app/activity?workflow=${saved.id}">Activity</a>
</div>`
  : ''}
${options.stepStats ? stepStatsCard(options.stepStats) : ''}
<form method="post" action="${action}" class="card" novalidate>${csrfField(viewer)}
${textField({ id: 'wf-name', name: 'name', label: 'Name', value: form.name, errors: errors.name, required: true, maxlength: 200 })}
${textField({ id: 'wf-event', name: 'trigger_event', label: 'Trigger event', value: form.event, errors: errors.trigger_event, required: true, maxlength: 100, hint: 'The event name that starts this workflow, exactly as your product sends it (e.g. signup).' })}
<div class="field inline"><input id="wf-transactional" name="transactional" type="checkbox"${form.transactional ? html` checked` : ''}>
<label for="wf-transactional">Transactional (also to contacts who unsubscribed; never to bounced or suppressed ones)</label></div>
<h2>Conditions</h2>
<p class="hint">All must hold on the event's properties. Leave a row empty to ignore it; save to get more rows.</p>
${form.conditions.map((condition, index) => conditionRow(condition, index, errors))}
${textArea({ id: 'wf-fallbacks', name: 'fallbacks', label: 'Fallbacks', value: form.fallbacks, errors: errors.fallbacks, rows: 3, hint: 'One per line, name=value: used when a contact has no such detail (first_name=there).' })}
<h2>Steps</h2>
<p class="hint">Run in order. Empty rows are ignored; save to get more rows.</p>
${form.steps.map((step, index) => stepRow(step, index, errors, saved))}
<button type="submit">${saved ? 'Save changes' : 'Create workflow'}</button>
</form>`,
  });
}
