import type { Contact, ContactFilter, ContactPage } from '../../../data-access/contacts.client';
import { html, type SafeHtml } from '../html';
import { page, type Viewer } from '../layout';
import { contactName as name, contactStatus as status } from './contact.page';


function row(contact: Contact): SafeHtml {
  return html`<tr>
<td data-label="Email"><a href="/app/contacts/${contact.id}">${contact.email}</a>${name(contact) ? html`<div class="hint">${name(contact)}</div>` : ''}</td>
<td data-label="Status">${status(contact)}</td>
<td data-label="Tags"><div class="tags">${contact.tags.map((tag) => html`<a class="badge" href="/app/contacts?tag=${encodeURIComponent(tag)}">${tag}</a>`)}</div></td>
<td data-label="Added">${contact.created_at.slice(0, 10)}</td>
</tr>`;
}

const choice = (field: string, value: boolean | undefined, labels: [string, string, string]) =>
  html`<select id="filter-${field}" name="${field}">
<option value=""${value === undefined ? html` selected` : ''}>${labels[0]}</option>
<option value="true"${value === true ? html` selected` : ''}>${labels[1]}</option>
<option value="false"${value === false ? html` selected` : ''}>${labels[2]}</option>
</select>`;

export function contactsListPage(options: { viewer: Viewer; filter: ContactFilter; result: ContactPage; query: (page: number) => string; exportHref: string }): string {
  const { filter, result } = options;
  const { current_page: current, total_pages: pages, total_count: total } = result.meta;
  return page({
    title: 'Contacts',
    viewer: options.viewer,
    section: 'contacts',
    body: html`<h1>Contacts</h1>
<div class="actions"><a class="button" href="/app/contacts/new">Add a contact</a>
<a class="button secondary" href="/app/contacts/import">Import a CSV file</a>
<a class="button secondary" href="${options.exportHref}" download>Export these contacts (CSV)</a></div>
<form class="card filters" method="get" action="/app/contacts" role="search">
<div class="field"><label for="filter-q">Search by email</label><input id="filter-q" name="q" type="search" value="${filter.q ?? ''}" maxlength="320"></div>
<div class="field"><label for="filter-tag">Tag</label><input id="filter-tag" name="tag" type="text" value="${filter.tag ?? ''}" maxlength="100"></div>
<div class="field"><label for="filter-subscribed">Subscription</label>${choice('subscribed', filter.subscribed, ['Any', 'Subscribed', 'Unsubscribed'])}</div>
<div class="field"><label for="filter-bounced">Bounces</label>${choice('bounced', filter.bounced, ['Any', 'Bounced', 'Not bounced'])}</div>
<div><button type="submit">Filter</button></div>
</form>
<p role="status">${total.toLocaleString('en-US')} ${total === 1 ? 'contact matches' : 'contacts match'}.</p>
${result.data.length === 0
  ? html`<div class="card"><p>No contacts match.</p></div>`
  : html`<div class="card table-wrap"><table class="stack-table">
<caption class="visually-hidden">Contacts, newest first</caption>
<thead><tr><th scope="col">Email</th><th scope="col">Status</th><th scope="col">Tags</th><th scope="col">Added</th></tr></thead>
<tbody>${result.data.map(row)}</tbody></table></div>`}
<nav class="pager" aria-label="Pages">
${current > 1 ? html`<a href="${options.query(current - 1)}" rel="prev">Previous page</a>` : ''}
<span>Page ${current} of ${Math.max(pages, 1)}</span>
${current < pages ? html`<a href="${options.query(current + 1)}" rel="next">Next page</a>` : ''}
</nav>`,
  });
}
