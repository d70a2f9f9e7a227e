import { html, type SafeHtml } from '../html';
import { csrfField, page, type Viewer } from '../layout';
import type { ContactForm, FieldErrors } from './contact-form';

/** The reasons for one field, tied to it by aria-describedby. */
const errorsFor = (id: string, messages: string[] | undefined) =>
  messages?.length ? html`<p class="field-error" id="${id}-error">${messages.join('; ')}</p>` : '';

const describedBy = (id: string, messages: string[] | undefined, hint?: string) => {
  const ids = [hint, messages?.length ? `${id}-error` : undefined].filter(Boolean).join(' ');
  return ids ? html` aria-describedby="${ids}"${messages?.length ? html` aria-invalid="true"` : ''}` : '';
};

function textField(name: 'email' | 'first_name' | 'last_name', label: string, form: ContactForm, errors: FieldErrors, type = 'text'): SafeHtml {
  const id = `contact-${name}`;
  return html`<div class="field"><label for="${id}">${label}</label>
<input id="${id}" name="${name}" type="${type}" value="${form[name]}" maxlength="${name === 'email' ? 320 : 255}"${name === 'email' ? html` required autocomplete="off"` : ''}${describedBy(id, errors[name])}>
${errorsFor(id, errors[name])}</div>`;
}

function propertyRows(form: ContactForm): SafeHtml {
  return html`${form.properties.map(
    (row, index) => html`<div class="property-row">
<div class="field"><label for="property-key-${index}">Property ${index + 1} name</label><input id="property-key-${index}" name="property_key" type="text" value="${row.key}" maxlength="255"></div>
<div class="field"><label for="property-value-${index}">Property ${index + 1} value</label><input id="property-value-${index}" name="property_value" type="text" value="${row.value}" maxlength="2048"></div>
<div class="field inline"><input id="property-remove-${index}" name="property_remove" type="checkbox" value="${index}"><label for="property-remove-${index}">Remove</label></div>
</div>`,
  )}`;
}

/** Create or edit a contact: every field labelled, the service's reasons next to their field. */
export function contactFormPage(options: { viewer: Viewer; form: ContactForm; errors?: FieldErrors | undefined; contactId?: number | undefined }): string {
  const { form, viewer } = options;
  const errors = options.errors ?? {};
  const editing = options.contactId !== undefined;
  const action = editing ? `/app/contacts/${options.contactId}/edit` : '/app/contacts/new';
  const title = editing ? `Edit ${form.email}` : 'Add a contact';
  return page({
    title,
    viewer,
    section: 'contacts',
    body: html`<p><a href="${editing ? `/app/contacts/${options.contactId}` : '/app/contacts'}">${editing ? 'Back to the contact' : 'All contacts'}</a></p>
<div class="card"><h1>${title}</h1>
${errors.form?.length ? html`<div class="notice error" role="alert">${errors.form.join('; ')}</div>` : ''}
${Object.keys(errors).length > 0 && !errors.form ? html`<div class="notice error" role="alert">Some fields need a change: see the messages below.</div>` : ''}
<form method="post" action="${action}" novalidate>
${csrfField(viewer)}
<button type="submit" name="_action" value="save" class="visually-hidden" tabindex="-1" aria-hidden="true">Save</button>
${textField('email', 'Email', form, errors, 'email')}
${textField('first_name', 'First name', form, errors)}
${textField('last_name', 'Last name', form, errors)}
<div class="field inline"><input id="contact-subscribed" name="subscribed" type="checkbox" value="true"${form.subscribed ? html` checked` : ''}${describedBy('contact-subscribed', errors.subscribed, 'contact-subscribed-hint')}>
<label for="contact-subscribed">Subscribed to marketing email</label></div>
<p class="hint" id="contact-subscribed-hint">Ticking this for an address that unsubscribed or bounced lifts its suppression: do it only with the person's consent.</p>
${errorsFor('contact-subscribed', errors.subscribed)}
<div class="field"><label for="contact-tags">Tags</label>
<input id="contact-tags" name="tags" type="text" value="${form.tags}"${describedBy('contact-tags', errors.tags, 'contact-tags-hint')}>
<p class="hint" id="contact-tags-hint">Separated by commas, e.g. “customer, newsletter”.</p>${errorsFor('contact-tags', errors.tags)}</div>
<fieldset class="properties"><legend>Custom properties</legend>
${propertyRows(form)}
${errorsFor('contact-properties', errors.custom_properties)}
<button type="submit" class="secondary" name="_action" value="add-property" formnovalidate>Add a property row</button>
</fieldset>
<div class="actions"><button type="submit" name="_action" value="save">${editing ? 'Save changes' : 'Add contact'}</button>
<a class="button secondary" href="${editing ? `/app/contacts/${options.contactId}` : '/app/contacts'}">Cancel</a></div>
</form></div>`,
  });
}

/** The confirmation step before a delete (a link never deletes; only this form's POST does). */
export function deleteConfirmPage(options: { viewer: Viewer; contactId: number; email: string }): string {
  return page({
    title: 'Delete contact',
    viewer: options.viewer,
    section: 'contacts',
    body: html`<div class="card"><h1>Delete ${options.email}?</h1>
<p>The contact, their tags and custom properties are removed. If they unsubscribed, the address stays suppressed: it will not be emailed again unless someone re-adds it as subscribed.</p>
<form method="post" action="/app/contacts/${options.contactId}/delete">${csrfField(options.viewer)}
<div class="actions"><button type="submit" class="danger">Delete contact</button>
<a class="button secondary" href="/app/contacts/${options.contactId}">Cancel</a></div></form></div>`,
  });
}
