import type { Account } from '../../../data-access/accounts.repository';
import { html } from '../html';
import { page, type Viewer } from '../layout';

export function accountPage(account: Account, viewer: Viewer): string {
  return page(
    'Account',
    html`<div class="card">
<h1>Account</h1>
<dl>
<dt>Name</dt><dd>${account.name}</dd>
<dt>Plan</dt><dd>${account.plan}</dd>
<dt>API access</dt><dd>${account.apiAccess ? 'Included' : 'Not included in this plan'}</dd>
<dt>Signed in as</dt><dd>${viewer.email}</dd>
</dl>
</div>
<div class="card"><h2>API keys</h2><p>Create, review and revoke the keys your applications use.</p>
<a class="button secondary" href="/settings/api-keys">Manage API keys</a></div>`,
    viewer,
    'account',
  );
}
