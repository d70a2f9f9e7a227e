import type { EndpointStatus, WebhookEndpoint } from '../../../data-access/webhooks.client';
import { html, type SafeHtml } from '../html';
import { csrfField, type Viewer } from '../layout';
import { fieldMessages, invalidAttrs, textField } from '../workflows/form-fields';
import { settingsPage } from './settings.page';

export const WEBHOOKS_PATH = '/app/settings/webhooks';

const STATUS_LABEL: Record<EndpointStatus, string> = { active: 'Active', failing: 'Failing', disabled: 'Disabled' };
/** A failing endpoint wears the red badge the rest of the app uses for failures. */
const STATUS_CLASS: Record<EndpointStatus, string> = { active: 'active', failing: 'failed', disabled: 'disabled' };

export const minute = (iso: string) => `${iso.replace('T', ' ').slice(0, 16)} UTC`;

export const statusBadge = (status: EndpointStatus) => html`<span class="badge ${STATUS_CLASS[status]}">${STATUS_LABEL[status]}</span>`;

/** What the create and edit forms hold (a refused form comes back with what was typed). */
export interface EndpointForm {
  url: string;
  description: string;
  eventTypes: string[];
  enabled: boolean;
}

export const emptyEndpointForm = (): EndpointForm => ({ url: '', description: '', eventTypes: [], enabled: true });

export const endpointFormOf = (endpoint: WebhookEndpoint): EndpointForm => ({
  url: endpoint.url,
  description: endpoint.description,
  eventTypes: endpoint.event_types,
  enabled: endpoint.enabled,
});

export type FieldErrors = Record<string, string[]>;

/** The secret of a new endpoint or a rotation: on this one page, never again. */
export function secretNotice(secret: { plaintext: string; name: string }, rotatedUntil: string | null): SafeHtml {
  const rotated = rotatedUntil !== null;
  return html`<div class="notice" role="status" aria-live="polite">
<h2>${rotated ? 'New signing secret' : 'Signing secret'} for ${secret.name}</h2>
<p><strong>Copy this secret now. It will not be shown again.</strong> Your receiver verifies each request's <code>webhook-signature</code> with it.</p>
<div class="secret"><code id="new-secret">${secret.plaintext}</code>
<button type="button" class="secondary" data-copy="new-secret" hidden>Copy</button></div>
<p id="copy-status" class="hint" aria-live="polite"></p>
${rotatedUntil ? html`<p>Until ${minute(rotatedUntil)} every request is signed with both the old and the new secret, so your receiver keeps working while you replace the secret there.</p>` : ''}
</div>`;
}

/** URL, event types (one checkbox each), description, and on creation whether it starts enabled. */
export function endpointFields(options: { form: EndpointForm; eventTypes: readonly string[]; errors: FieldErrors; withEnabled: boolean }): SafeHtml {
  const { form, errors } = options;
  return html`${textField({ id: 'endpoint-url', name: 'url', label: 'Endpoint URL', value: form.url, required: true, maxlength: 2000, errors: errors.url, hint: 'Where we POST each event, e.g. https://example.com/webhooks/mailer.' })}
<fieldset${invalidAttrs('endpoint-events', errors.event_types)}><legend>Event types</legend>
${options.eventTypes.map(
  (type) => html`<div class="field inline"><input type="checkbox" id="event-${type}" name="event_types" value="${type}"${form.eventTypes.includes(type) ? html` checked` : ''}>
<label for="event-${type}">${type}</label></div>`,
)}
${fieldMessages('endpoint-events', errors.event_types)}</fieldset>
${textField({ id: 'endpoint-description', name: 'description', label: 'Description (optional)', value: form.description, maxlength: 500, errors: errors.description })}
${options.withEnabled
  ? html`<div class="field inline"><input type="checkbox" id="endpoint-enabled" name="enabled" value="true"${form.enabled ? html` checked` : ''}>
<label for="endpoint-enabled">Enabled: deliver events from now on</label></div>`
  : ''}`;
}

function endpointRow(endpoint: WebhookEndpoint): SafeHtml {
  return html`<tr data-endpoint-id="${endpoint.id}">
<td data-label="URL"><a href="${WEBHOOKS_PATH}/${endpoint.id}">${endpoint.url}</a>${endpoint.description ? html`<div class="hint">${endpoint.description}</div>` : ''}</td>
<td data-label="Events">${endpoint.event_types.join(', ')}</td>
<td data-label="Status">${statusBadge(endpoint.status)}${endpoint.failing_since ? html`<div class="hint">since ${minute(endpoint.failing_since)}</div>` : ''}</td>
</tr>`;
}

/** Endpoints that used up their retries, said first and loudly: their receivers are missing events. */
export function failingNotice(endpoints: WebhookEndpoint[], linkEach: boolean): SafeHtml {
  const failing = endpoints.filter((endpoint) => endpoint.status === 'failing');
  if (failing.length === 0) return html``;
  return html`<div class="notice error" role="alert" data-webhooks-failing="${failing.length}">
<strong>${failing.length === 1 ? 'A webhook endpoint is failing.' : `${failing.length} webhook endpoints are failing.`}</strong>
A delivery to ${failing.length === 1 ? 'it' : 'each'} used up all its retries (about a day of them) without success; new events are still tried, and the first success clears this.
<ul>${failing.map((endpoint) => html`<li>${linkEach ? html`<a href="${WEBHOOKS_PATH}/${endpoint.id}">${endpoint.url}</a>` : endpoint.url} (since ${minute(endpoint.failing_since ?? endpoint.updated_at)})</li>`)}</ul>
</div>`;
}

export function webhooksPage(options: { viewer: Viewer; endpoints: WebhookEndpoint[]; eventTypes: readonly string[]; form: EndpointForm; errors?: FieldErrors }): string {
  const errors = options.errors ?? {};
  return settingsPage({
    title: 'Webhooks',
    current: 'webhooks',
    viewer: options.viewer,
    body: html`<h1>Webhooks</h1>
${failingNotice(options.endpoints, true)}
<div class="card">
<h2>Your endpoints</h2>
${options.endpoints.length === 0
  ? html`<p>No endpoints yet. Add one below and we will POST the events you choose to it, signed per the Standard Webhooks specification.</p>`
  : html`<div class="table-wrap"><table class="stack-table">
<caption class="hint">Endpoints of this account</caption>
<thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Status</th></tr></thead>
<tbody>${options.endpoints.map(endpointRow)}</tbody>
</table></div>`}
</div>
<div class="card">
<h2>Add an endpoint</h2>
${errors.form ? html`<div class="notice error" role="alert">${errors.form.join(' ')}</div>` : ''}
<form method="post" action="${WEBHOOKS_PATH}">${csrfField(options.viewer)}
${endpointFields({ form: options.form, eventTypes: options.eventTypes, errors, withEnabled: true })}
<button type="submit">Add endpoint</button>
</form>
</div>`,
  });
}

export function deleteConfirmPage(endpoint: WebhookEndpoint, viewer: Viewer): string {
  return settingsPage({
    title: 'Delete endpoint',
    current: 'webhooks',
    viewer,
    body: html`<div class="card">
<h1>Delete this endpoint?</h1>
<p><code>${endpoint.url}</code> will receive nothing more, and its delivery log is deleted with it. This cannot be undone.</p>
<form method="post" action="${WEBHOOKS_PATH}/${endpoint.id}/delete">${csrfField(viewer)}
<button type="submit" class="danger">Delete endpoint</button>
<a class="button secondary" href="${WEBHOOKS_PATH}/${endpoint.id}">Cancel</a>
</form>
</div>`,
  });
}
