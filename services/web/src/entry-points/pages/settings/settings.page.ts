import type { AccountSummary } from '../../../data-access/gateway.client';
import { html, type SafeHtml } from '../html';
import { page, type Viewer } from '../layout';

/** The settings pages share one sub-navigation under the main one. */
export function settingsPage(options: { title: string; body: SafeHtml; viewer: Viewer; current: 'account' | 'api-keys' | 'password' | 'sending' | 'tracking' | 'webhooks' | 'double-opt-in' }): string {
  const link = (id: typeof options.current, href: string, label: string) =>
    html`<a href="${href}"${id === options.current ? html` aria-current="page"` : ''}>${label}</a>`;
  return page({
    title: options.title,
    viewer: options.viewer,
    section: 'settings',
    body: html`<nav class="actions" aria-label="Settings">${link('account', '/app/settings/account', 'Account')} ${link('api-keys', '/app/settings/api-keys', 'API keys')} ${link('password', '/app/settings/password', 'Password')} ${link('sending', '/app/settings/sending', 'Sending')} ${link('tracking', '/app/settings/tracking', 'Tracking')} ${link('webhooks', '/app/settings/webhooks', 'Webhooks')} ${link('double-opt-in', '/app/settings/double-opt-in', 'Double opt-in')}</nav>
${options.body}`,
  });
}

export function accountPage(account: AccountSummary, viewer: Viewer): string {
  return settingsPage({
    title: 'Account',
    viewer,
    current: 'account',
    body: html`<div class="card">
<h1>Account</h1>
<dl>
<dt>Name</dt><dd>${account.name}</dd>
<dt>Plan</dt><dd>${account.plan}</dd>
<dt>API access</dt><dd>${account.api_access ? 'Included' : 'Not included in this plan'}</dd>
<dt>Signed in as</dt><dd>${viewer.email}</dd>
</dl>
</div>
<div class="card"><h2>API keys</h2><p>Create, review and revoke the keys your applications use.</p>
<a class="button secondary" href="/app/settings/api-keys">Manage API keys</a></div>`,
  });
}

export function passwordPage(options: { viewer: Viewer; errors?: string[]; changed?: boolean }): string {
  return settingsPage({
    title: 'Change password',
    viewer: options.viewer,
    current: 'password',
    body: html`<div class="card narrow">
<h1>Change password</h1>
${options.changed ? html`<div class="notice" role="status">Your password was changed. Every other session of yours has been signed out.</div>` : ''}
${options.errors?.length ? html`<div class="notice error" role="alert"><ul>${options.errors.map((error) => html`<li>${error}</li>`)}</ul></div>` : ''}
<form method="post" action="/app/settings/password">
<input type="hidden" name="_csrf" value="${options.viewer.csrfToken}">
<input type="email" name="username" autocomplete="username" value="${options.viewer.email}" hidden aria-hidden="true" tabindex="-1">
<div class="field"><label for="current-password">Current password</label>
<input id="current-password" name="current_password" type="password" autocomplete="current-password" required></div>
<div class="field"><label for="new-password">New password</label>
<input id="new-password" name="new_password" type="password" autocomplete="new-password" required minlength="10" aria-describedby="new-password-hint">
<p id="new-password-hint" class="hint">At least 10 characters.</p></div>
<button type="submit">Change password</button>
</form>
</div>`,
  });
}
