import type { DashboardSends, HistoryEntry } from '../../../data-access/account-figures.client';
import type { ContactFigures } from '../../../data-access/contacts.client';
import type { WebhookEndpoint } from '../../../data-access/webhooks.client';
import { html, type SafeHtml } from '../html';
import { page, type Viewer } from '../layout';
import { failingNotice } from '../settings/webhooks.page';
import { sendsChart } from './sends-chart';

export interface DashboardFigures {
  contacts: ContactFigures;
  sends: DashboardSends;
  /** The account's webhook endpoints: any failing one is announced at the top. */
  webhooks: WebhookEndpoint[];
}

const stat = (label: string, value: number, href: string) =>
  html`<a class="stat" href="${href}"><span class="number">${value.toLocaleString('en-US')}</span>${label}</a>`;

const minute = (iso: string) => `${iso.replace('T', ' ').slice(0, 16)} UTC`;

function failureItem(entry: HistoryEntry): SafeHtml {
  const what = entry.source === 'c' ? `campaign #${entry.campaign_id ?? ''}` : `${entry.workflow ?? 'workflow'}${entry.step_id ? `, step ${entry.step_id}` : ''}`;
  const who = entry.contact_id ? html`<a href="/app/contacts/${entry.contact_id}">${entry.email ?? `contact #${entry.contact_id}`}</a>` : html`${entry.email ?? 'unknown address'}`;
  return html`<li>${minute(entry.at)} · ${who} · ${what}: ${entry.reason ?? entry.smtp_response ?? 'no reason recorded'}</li>`;
}

export function dashboardPage(figures: DashboardFigures, viewer: Viewer): string {
  const { contacts, sends } = figures;
  return page({
    title: 'Dashboard',
    viewer,
    section: 'dashboard',
    body: html`<h1>Dashboard</h1>
${failingNotice(figures.webhooks, true)}
<h2>Contacts</h2>
<div class="stats">
${stat('contacts in total', contacts.total, '/app/contacts')}
${stat('subscribed', contacts.subscribed, '/app/contacts?subscribed=true')}
${stat('new in the last 7 days', contacts.created_since, '/app/contacts')}
</div>
<div class="actions"><a class="button" href="/app/contacts/new">Add a contact</a><a class="button secondary" href="/app/contacts/import">Import a CSV file</a></div>
<h2>Sending</h2>
<div class="stats">
${stat('workflows active', sends.workflows_active, '/app/workflows')}
${stat('campaigns in flight', sends.campaigns_in_flight, '/app/campaigns')}
</div>
<div class="card"><h2>Emails in the last 30 days</h2>${sendsChart(sends.daily)}</div>
<div class="card"><h2>Recent failures</h2>
${sends.recent_failures.length === 0 ? html`<p>No failed or bounced email.</p>` : html`<ul class="failures">${sends.recent_failures.map(failureItem)}</ul>`}
<p><a href="/app/activity?outcome=failed">All failures in the activity log</a></p></div>`,
  });
}
