import type { CampaignPage, CampaignSummary } from '../../../data-access/campaigns.client';
import { html, type SafeHtml } from '../html';
import { page, type Viewer } from '../layout';
import { inFlight, progressOf, statusBadge } from './campaign-progress.partial';

const row = (campaign: CampaignSummary) => html`<tr data-campaign-id="${campaign.id}">
<td><a href="/app/campaigns/${campaign.id}">${campaign.name}</a><div class="hint">${campaign.title}</div></td>
<td>${statusBadge(campaign)}</td>
<td>${progressOf(campaign)}</td>
</tr>`;

/** The rows, polling themselves every 2 s while any campaign on the page is in flight. */
export function campaignRows(result: CampaignPage, pageNumber: number): SafeHtml {
  const poll = result.data.some(inFlight) ? html` hx-get="/app/campaigns/rows?page=${pageNumber}" hx-trigger="every 2s" hx-swap="outerHTML"` : html``;
  return html`<tbody id="campaign-rows"${poll}>${result.data.map(row)}</tbody>`;
}

/** /app/campaigns: every campaign, newest first, with status and live progress. */
export function campaignsListPage(options: { viewer: Viewer; result: CampaignPage; page: number }): string {
  const { result } = options;
  return page({
    title: 'Campaigns',
    section: 'campaigns',
    viewer: options.viewer,
    body: html`<h1>Campaigns</h1>
<div class="actions"><a class="button" href="/app/campaigns/new">New campaign</a></div>
<div class="card">
${result.data.length === 0
  ? html`<p>No campaigns yet.</p>`
  : html`<div class="table-wrap"><table class="stack-table">
<caption class="hint">${result.meta.total_count} campaign${result.meta.total_count === 1 ? '' : 's'}, newest first</caption>
<thead><tr><th scope="col">Campaign</th><th scope="col">Status</th><th scope="col">Progress</th></tr></thead>
${campaignRows(result, options.page)}</table></div>`}
<nav class="pager" aria-label="Pages">${options.page > 1 ? html`<a href="/app/campaigns?page=${options.page - 1}">Newer</a>` : ''}
<span class="hint">Page ${result.meta.current_page} of ${Math.max(1, result.meta.total_pages)}</span>
${options.page < result.meta.total_pages ? html`<a href="/app/campaigns?page=${options.page + 1}" rel="next">Older</a>` : ''}</nav>
</div>`,
  });
}
