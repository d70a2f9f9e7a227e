import type { WebhookDelivery, WebhookEndpoint } from '../../../data-access/webhooks.client';
import { html, type SafeHtml } from '../html';
import { csrfField, type Viewer } from '../layout';
import { settingsPage } from './settings.page';
import { endpointFields, endpointFormOf, failingNotice, minute, secretNotice, statusBadge, WEBHOOKS_PATH, type EndpointForm, type FieldErrors } from './webhooks.page';

const STATE_CLASS: Record<WebhookDelivery['state'], string> = { pending: 'disabled', delivering: 'disabled', succeeded: 'active', failed: 'failed' };

/** The last attempt says how a delivery went: the answer's status, how long it took, what came back. */
function lastAttempt(delivery: WebhookDelivery): SafeHtml {
  const last = delivery.attempts.at(-1);
  if (!last) return html`<span class="hint">not tried yet</span>`;
  const outcome = last.status_code === null ? (last.error ?? 'no answer') : `HTTP ${last.status_code}`;
  return html`<span data-attempt-status>${outcome}</span> · <span data-latency>${last.latency_ms} ms</span>
${last.response_excerpt ? html`<details><summary>Response</summary><pre class="email-text">${last.response_excerpt}</pre></details>` : ''}
${last.error && last.status_code !== null ? html`<div class="hint">${last.error}</div>` : ''}`;
}

function deliveryRow(endpoint: WebhookEndpoint, delivery: WebhookDelivery, viewer: Viewer): SafeHtml {
  const canResend = delivery.state === 'succeeded' || delivery.state === 'failed';
  return html`<tr data-delivery-id="${delivery.id}" data-event-type="${delivery.event_type}">
<td data-label="Event">${delivery.event_type}<div class="hint">${minute(delivery.created_at)}</div></td>
<td data-label="State"><span class="badge ${STATE_CLASS[delivery.state]}">${delivery.state}</span>
<div class="hint">${delivery.attempts.length} ${delivery.attempts.length === 1 ? 'attempt' : 'attempts'}${delivery.next_attempt_at ? `, next ${minute(delivery.next_attempt_at)}` : ''}</div></td>
<td data-label="Last attempt">${lastAttempt(delivery)}</td>
<td class="row-actions">${canResend
  ? html`<form method="post" action="${WEBHOOKS_PATH}/${endpoint.id}/deliveries/${delivery.id}/resend">${csrfField(viewer)}
<button type="submit" class="secondary" aria-label="Resend ${delivery.event_type} delivery ${delivery.id}">Resend</button></form>`
  : ''}</td>
</tr>`;
}

function deliveryLog(endpoint: WebhookEndpoint, deliveries: WebhookDelivery[], viewer: Viewer, nextBefore: number | undefined): SafeHtml {
  return html`<div class="card" id="deliveries">
<h2>Delivery log</h2>
${deliveries.length === 0
  ? html`<p>No deliveries yet. Events of the chosen types show here as they are sent.</p>`
  : html`<div class="table-wrap"><table class="stack-table">
<caption class="hint">Newest first; a failed attempt is retried on a schedule of about a day</caption>
<thead><tr><th scope="col">Event</th><th scope="col">State</th><th scope="col">Last attempt</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${deliveries.map((delivery) => deliveryRow(endpoint, delivery, viewer))}</tbody>
</table></div>`}
<div class="pager">${nextBefore === undefined ? '' : html`<a href="${WEBHOOKS_PATH}/${endpoint.id}?before=${nextBefore}#deliveries">Older deliveries</a>`}
<a href="${WEBHOOKS_PATH}/${endpoint.id}#deliveries">Refresh</a></div>
</div>`;
}

export interface EndpointPageOptions {
  viewer: Viewer;
  endpoint: WebhookEndpoint;
  eventTypes: readonly string[];
  deliveries: WebhookDelivery[];
  /** The delivery id to page from, when there are older ones. */
  nextBefore?: number | undefined;
  form?: EndpointForm;
  errors?: FieldErrors;
  secret?: { plaintext: string; name: string; rotated: boolean } | undefined;
  notice?: string | undefined;
}

/** One endpoint: its state, the secret once after a creation or rotation, the edit form, the actions and the delivery log. */
export function endpointPage(options: EndpointPageOptions): string {
  const { endpoint, viewer } = options;
  const errors = options.errors ?? {};
  const toggle = endpoint.enabled ? 'disable' : 'enable';
  return settingsPage({
    title: 'Webhook endpoint',
    current: 'webhooks',
    viewer,
    body: html`<p><a href="${WEBHOOKS_PATH}">All endpoints</a></p>
<h1>Endpoint <code>${endpoint.url}</code></h1>
${options.secret ? secretNotice(options.secret, options.secret.rotated ? (endpoint.previous_secret_expires_at ?? endpoint.updated_at) : null) : ''}
${options.notice ? html`<div class="notice" role="status">${options.notice}</div>` : ''}
${failingNotice([endpoint], false)}
<div class="card">
<dl>
<dt>Status</dt><dd data-endpoint-status="${endpoint.status}">${statusBadge(endpoint.status)}</dd>
<dt>Events</dt><dd>${endpoint.event_types.join(', ')}</dd>
${endpoint.previous_secret_expires_at ? html`<dt>Previous secret</dt><dd>still signs until ${minute(endpoint.previous_secret_expires_at)}</dd>` : ''}
<dt>Created</dt><dd>${minute(endpoint.created_at)}</dd>
</dl>
<div class="actions">
<form method="post" action="${WEBHOOKS_PATH}/${endpoint.id}/${toggle}">${csrfField(viewer)}<button type="submit" class="secondary">${endpoint.enabled ? 'Disable' : 'Enable'}</button></form>
<form method="post" action="${WEBHOOKS_PATH}/${endpoint.id}/rotate-secret">${csrfField(viewer)}<button type="submit" class="secondary">Rotate secret</button></form>
<a class="button danger" href="${WEBHOOKS_PATH}/${endpoint.id}/delete">Delete</a>
</div>
<p class="hint">Rotating gives a new secret; the old one keeps signing too for a while (24 hours unless the operator set otherwise), so your receiver can switch without missing a request.</p>
</div>
${deliveryLog(endpoint, options.deliveries, viewer, options.nextBefore)}
<div class="card">
<h2>Edit</h2>
${errors.form ? html`<div class="notice error" role="alert">${errors.form.join(' ')}</div>` : ''}
<form method="post" action="${WEBHOOKS_PATH}/${endpoint.id}">${csrfField(viewer)}
${endpointFields({ form: options.form ?? endpointFormOf(endpoint), eventTypes: options.eventTypes, errors, withEnabled: false })}
<button type="submit">Save changes</button>
</form>
</div>`,
  });
}
