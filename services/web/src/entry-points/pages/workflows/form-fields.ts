import { html, type SafeHtml } from '../html';

/** The messages shown under one field, linked to it by aria-describedby. */
export function fieldMessages(id: string, messages: string[] | undefined): SafeHtml {
  if (!messages || messages.length === 0) return html``;
  return html`<p class="field-error" id="${id}-error">${messages.join(' ')}</p>`;
}

/** Attributes that tie an input to its error message, when it has one. */
export const invalidAttrs = (id: string, messages: string[] | undefined): SafeHtml =>
  messages && messages.length > 0 ? html` aria-invalid="true" aria-describedby="${id}-error"` : html``;

export const textField = (options: { id: string; name: string; label: string; value: string; errors?: string[] | undefined; hint?: string; required?: boolean; type?: string; maxlength?: number }) =>
  html`<div class="field"><label for="${options.id}">${options.label}</label>
<input id="${options.id}" name="${options.name}" type="${options.type ?? 'text'}" value="${options.value}"${options.required ? html` required` : ''}${options.maxlength ? html` maxlength="${options.maxlength}"` : ''}${invalidAttrs(options.id, options.errors)}>
${options.hint ? html`<p class="hint">${options.hint}</p>` : ''}${fieldMessages(options.id, options.errors)}</div>`;

export const textArea = (options: { id: string; name: string; label: string; value: string; errors?: string[] | undefined; hint?: string; rows?: number }) =>
  html`<div class="field"><label for="${options.id}">${options.label}</label>
<textarea id="${options.id}" name="${options.name}" rows="${options.rows ?? 4}"${invalidAttrs(options.id, options.errors)}>${options.value}</textarea>
${options.hint ? html`<p class="hint">${options.hint}</p>` : ''}${fieldMessages(options.id, options.errors)}</div>`;

/**
 * A rendered email shown inside the page: a sandboxed frame loading `frameSrc` (the same render
 * served with the email's own styles allowed), so its HTML can neither script nor restyle the app.
 */
export const renderedEmail = (sample: { subject: string; html: string | null; text: string }, frameSrc: string) =>
  html`<div class="email-preview">
<p><span class="label">Subject</span> ${sample.subject}</p>
${sample.html === null ? '' : html`<iframe title="Email preview" sandbox="" src="${frameSrc}"></iframe>`}
<details><summary>Text part</summary><pre class="email-text">${sample.text}</pre></details>
</div>`;
