import type { ApiKeySummary } from '../../../data-access/gateway.client';
import { html, type SafeHtml } from '../html';
import type { Viewer } from '../layout';
import { settingsPage } from './settings.page';

const STATUS_LABEL = { active: 'Active', expired: 'Expired', revoked: 'Revoked' } as const;

const minute = (iso: string) => iso.replace('T', ' ').slice(0, 16) + ' UTC';

function keyRow(key: ApiKeySummary): SafeHtml {
  return html`<tr data-key-id="${key.id}">
<td data-label="Name">${key.name}<div class="hint"><code>mk_live_${key.key_id}_…</code></div></td>
<td data-label="Created">${key.created_at.slice(0, 10)}</td>
<td data-label="Expires">${key.expires_on ?? 'Never'}</td>
<td data-label="Last used">${key.last_used_at ? minute(key.last_used_at) : 'Never'}</td>
<td data-label="Status"><span class="badge ${key.status}">${STATUS_LABEL[key.status]}</span></td>
<td class="row-actions">${key.status === 'revoked' ? '' : html`<a class="button secondary" href="/app/settings/api-keys/${key.id}/revoke" aria-label="Revoke key ${key.name}">Revoke</a>`}</td>
</tr>`;
}

function newSecret(plaintext: string, name: string): SafeHtml {
  return html`<div class="notice" role="status" aria-live="polite">
<h2>Your new key “${name}”</h2>
<p><strong>Copy this key now. It will not be shown again.</strong> We store only a hash of it.</p>
<div class="secret"><code id="new-key">${plaintext}</code>
<button type="button" class="secondary" data-copy="new-key" hidden>Copy</button></div>
<p id="copy-status" class="hint" aria-live="polite"></p>
</div>`;
}

export function apiKeysPage(options: {
  keys: ApiKeySummary[];
  viewer: Viewer;
  /** False for a plan without API access: keys can be made, but the API answers them 403. */
  apiAccess: boolean;
  today: string;
  created?: { plaintext: string; name: string };
  error?: string;
  form?: { name?: string; expires?: string };
}): string {
  const { keys, viewer } = options;
  return settingsPage({
    title: 'API keys',
    current: 'api-keys',
    viewer,
    body: html`<h1>API keys</h1>
${options.apiAccess ? '' : html`<div class="notice error" role="note">Your plan does not include API access: requests with these keys are refused (403) until the account moves to a plan that includes it.</div>`}
${options.created ? newSecret(options.created.plaintext, options.created.name) : ''}
<div class="card">
<h2>Create a key</h2>
${options.error ? html`<div class="notice error" role="alert">${options.error}</div>` : ''}
<form method="post" action="/app/settings/api-keys">
<input type="hidden" name="_csrf" value="${viewer.csrfToken}">
<div class="field"><label for="key-name">Name</label>
<input id="key-name" name="name" type="text" required maxlength="100" value="${options.form?.name ?? ''}" aria-describedby="key-name-hint">
<p id="key-name-hint" class="hint">Where the key is used, e.g. “Production app”.</p></div>
<div class="field"><label for="key-expires">Expiry date (optional)</label>
<input id="key-expires" name="expires" type="date" min="${options.today}" value="${options.form?.expires ?? ''}" aria-describedby="key-expires-hint">
<p id="key-expires-hint" class="hint">The key works through the end of this day (UTC). Leave empty for a key that never expires.</p></div>
<button type="submit">Create key</button>
</form>
</div>
<div class="card">
<h2>Your keys</h2>
${keys.length === 0
  ? html`<p>No keys yet.</p>`
  : html`<div class="table-wrap"><table class="stack-table">
<caption class="hint">Keys of this account, newest first</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${keys.map(keyRow)}</tbody>
</table></div>`}
</div>`,
  });
}

export function revokeConfirmPage(key: ApiKeySummary, viewer: Viewer): string {
  return settingsPage({
    title: 'Revoke key',
    current: 'api-keys',
    viewer,
    body: html`<div class="card">
<h1>Revoke “${key.name}”?</h1>
<p>Requests with this key will be refused at once, on every server. This cannot be undone.</p>
<form method="post" action="/app/settings/api-keys/${key.id}/revoke">
<input type="hidden" name="_csrf" value="${viewer.csrfToken}">
<button type="submit" class="danger">Revoke key</button>
<a class="button secondary" href="/app/settings/api-keys">Cancel</a>
</form>
</div>`,
  });
}
