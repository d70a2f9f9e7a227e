import type { RenderedSample, StoredWorkflow } from '../../../data-access/automation.client';
import { html } from '../html';
import { csrfField, page, type Viewer } from '../layout';
import { renderedEmail, textField } from './form-fields';

/** One email step of a saved workflow: rendered for a chosen contact, and a test send to an address. */
export function stepPreviewPage(options: {
  viewer: Viewer;
  workflow: StoredWorkflow;
  stepId: string;
  contactEmail: string;
  sample?: RenderedSample | undefined;
  previewErrors?: string[] | undefined;
  testTo?: string;
  testErrors?: string[] | undefined;
  notice?: string | undefined;
}): string {
  const { viewer, workflow, stepId } = options;
  const base = `/app/workflows/${workflow.id}/steps/${encodeURIComponent(stepId)}`;
  return page({
    title: `Preview ${stepId}`,
    section: 'workflows',
    viewer,
    body: html`<p><a href="/app/workflows/${workflow.id}">← ${workflow.name}</a></p>
<h1>Email “${stepId}”</h1>
${options.notice ? html`<div class="notice" role="status">${options.notice}</div>` : ''}
<div class="card">
<h2>Preview for a contact</h2>
<form method="get" action="${base}">
${textField({ id: 'preview-contact', name: 'contact', label: 'Contact email', value: options.contactEmail, type: 'email', errors: options.previewErrors, hint: 'Rendered with this contact’s details; an unknown address gets the fallbacks.' })}
<button type="submit" class="secondary">Preview</button>
</form>
${options.sample
  ? html`${options.sample.known_contact ? '' : html`<p class="hint">No contact has this address: shown with the fallbacks.</p>`}${renderedEmail(options.sample, `${base}/frame?contact=${encodeURIComponent(options.contactEmail)}`)}`
  : ''}
</div>
<div class="card">
<h2>Send a test</h2>
<form method="post" action="${base}/test">${csrfField(viewer)}
<input type="hidden" name="contact" value="${options.contactEmail}">
${textField({ id: 'test-to', name: 'to', label: 'Send to', value: options.testTo ?? '', type: 'email', errors: options.testErrors, hint: 'The subject starts with [Test]; nothing is recorded for the contact.' })}
<button type="submit">Send test</button>
</form>
</div>`,
  });
}
