import type { ConfirmationTemplate, RenderedConfirmation } from '../../../data-access/double-opt-in.client';
import { html, type SafeHtml } from '../html';
import { csrfField, type Viewer } from '../layout';
import { fieldMessages, invalidAttrs, renderedEmail, textArea, textField } from '../workflows/form-fields';
import { settingsPage } from './settings.page';

export const DOUBLE_OPT_IN_PATH = '/app/settings/double-opt-in';

/** What the template form holds: text as typed (empty = generated from the HTML). */
export interface TemplateForm {
  subject: string;
  html: string;
  text: string;
}

export const templateFormOf = (template: ConfirmationTemplate): TemplateForm => ({ subject: template.subject, html: template.html, text: template.text ?? '' });

export interface DoubleOptInView {
  viewer: Viewer;
  enabled: boolean;
  /** The saved template is still the platform's default. */
  usingDefault: boolean;
  form: TemplateForm;
  errors?: Record<string, string[]> | undefined;
  notice?: string | undefined;
  /** The saved template for the sample contact, or why it could not be rendered. */
  preview: { contact: string; sample?: RenderedConfirmation | undefined; errors?: string[] | undefined };
  subscribeFormUrl: string;
}

/**
 * A form for the account's own site that posts to the hosted form: the same fields, and the same
 * honeypot (hidden from people, filled by bots), so the form's checks apply to it unchanged.
 */
export const subscribeSnippet = (url: string): string =>
  `<form method="post" action="${url}">
  <label for="mailer-email">Email address</label>
  <input id="mailer-email" name="email" type="email" required maxlength="254" autocomplete="email">
  <label for="mailer-first-name">First name (optional)</label>
  <input id="mailer-first-name" name="first_name" maxlength="255" autocomplete="given-name">
  <div style="position:absolute;left:-10000px" aria-hidden="true"><input name="website" tabindex="-1" autocomplete="off"></div>
  <button type="submit">Subscribe</button>
</form>`;

function switchCard(view: DoubleOptInView): SafeHtml {
  return html`<div class="card">
<h2>New contacts confirm first</h2>
<p>Status: <span class="badge ${view.enabled ? 'active' : 'disabled'}" data-double-opt-in="${view.enabled ? 'on' : 'off'}">${view.enabled ? 'On' : 'Off'}</span></p>
<p>When on, a contact created by a product event, a CSV import or the subscribe form starts as pending and gets the confirmation email below. Until they click its link they get no workflow or campaign email. Contacts created through the REST API keep <code>subscribed</code> as given.</p>
<form method="post" action="${DOUBLE_OPT_IN_PATH}/switch">${csrfField(view.viewer)}
<input type="hidden" name="enabled" value="${view.enabled ? 'false' : 'true'}">
<button type="submit"${view.enabled ? html` class="secondary"` : ''}>${view.enabled ? 'Turn double opt-in off' : 'Turn double opt-in on'}</button>
</form>
</div>`;
}

function templateCard(view: DoubleOptInView): SafeHtml {
  const errors = view.errors ?? {};
  return html`<div class="card">
<h2>Confirmation email</h2>
${view.usingDefault ? html`<p class="hint">This is the default email; save it to make it your own.</p>` : ''}
${errors.form ? html`<div class="notice error" role="alert">${errors.form.join(' ')}</div>` : ''}
<form method="post" action="${DOUBLE_OPT_IN_PATH}/template">${csrfField(view.viewer)}
${textField({ id: 'confirmation-subject', name: 'subject', label: 'Subject', value: view.form.subject, errors: errors.subject, maxlength: 998, hint: 'Personalise like any email, e.g. {{ first_name | default: "there" }}.' })}
${textArea({ id: 'confirmation-html', name: 'html', label: 'HTML', value: view.form.html, errors: errors.html, rows: 8, hint: 'Must contain {{ confirm_url }}: the link that confirms.' })}
${textArea({ id: 'confirmation-text', name: 'text', label: 'Text part (optional)', value: view.form.text, errors: errors.text, rows: 5, hint: 'Leave empty to generate it from the HTML.' })}
<button type="submit">Save email</button>
</form>
</div>`;
}

function previewCard(view: DoubleOptInView): SafeHtml {
  const { preview } = view;
  const frame = `${DOUBLE_OPT_IN_PATH}/preview/frame?contact=${encodeURIComponent(preview.contact)}`;
  return html`<div class="card" id="preview">
<h2>Preview</h2>
<form method="get" action="${DOUBLE_OPT_IN_PATH}#preview">
<div class="field"><label for="preview-contact">Preview for contact</label>
<input id="preview-contact" name="contact" type="email" value="${preview.contact}"${invalidAttrs('preview-contact', preview.errors)}>
<p class="hint">The saved email as this contact would get it; the confirm link is a sample.</p>${fieldMessages('preview-contact', preview.errors)}</div>
<button type="submit" class="secondary">Show preview</button>
</form>
${preview.sample
  ? html`${preview.sample.known_contact ? '' : html`<p class="hint">No contact has this address: shown as a contact with no details.</p>`}${renderedEmail(preview.sample, frame)}`
  : ''}
</div>`;
}

function subscribeFormCard(url: string): SafeHtml {
  return html`<div class="card">
<h2>Hosted subscribe form</h2>
<p>Share this page, or put the form below on your own site: <a href="${url}" data-subscribe-form>${url}</a></p>
<p class="hint">New addresses start pending when double opt-in is on. A hidden field catches bots, and one visitor can send it 5 times in 10 minutes.</p>
<p class="label" id="snippet-label">HTML for your site</p>
<pre class="email-text" aria-labelledby="snippet-label"><code id="subscribe-snippet">${subscribeSnippet(url)}</code></pre>
<button type="button" class="secondary" data-copy="subscribe-snippet" hidden>Copy HTML</button>
<p id="copy-status" class="hint" aria-live="polite"></p>
</div>`;
}

/** Settings → Double opt-in: the switch, the confirmation email with its preview, the subscribe form. */
export function doubleOptInPage(view: DoubleOptInView): string {
  return settingsPage({
    title: 'Double opt-in',
    current: 'double-opt-in',
    viewer: view.viewer,
    body: html`<h1>Double opt-in</h1>
${view.notice ? html`<div class="notice" role="status">${view.notice}</div>` : ''}
${switchCard(view)}
${templateCard(view)}
${previewCard(view)}
${subscribeFormCard(view.subscribeFormUrl)}`,
  });
}
