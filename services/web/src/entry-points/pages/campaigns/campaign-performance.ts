import type { CampaignReport } from '../../../data-access/campaigns.client';
import { html, type SafeHtml } from '../html';
import { engagementChart } from './engagement-chart';

export const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

/** The six figures of the report, each a count and (but sent) a rate of delivered. */
export const reportMetrics = (report: CampaignReport) => [
  { label: 'Sent', count: report.sent, rate: undefined },
  { label: 'Delivered', count: report.delivered, rate: undefined },
  { label: 'Bounced', count: report.bounced, rate: report.bounce_rate },
  { label: 'Opened', count: report.opened_unique, rate: report.open_rate },
  { label: 'Clicked', count: report.clicked_unique, rate: report.click_rate },
  { label: 'Unsubscribed', count: report.unsubscribed, rate: report.unsubscribe_rate },
];

const scanners = (count: number, what: 'open' | 'click') =>
  count > 0
    ? html` <span class="hint">Plus ${count.toLocaleString('en-US')} ${what}${count === 1 ? '' : 's'} by link scanners.</span>`
    : '';

/**
 * The campaign page's Performance section: counts and rates, opens and clicks per hour, the links
 * by clicks. Machine hits (scanners, prefetchers, hits within seconds of sending) are shown apart
 * so the figures are readers' only.
 */
export function campaignPerformance(report: CampaignReport, live?: { campaignId: number }): SafeHtml {
  // While the campaign sends, the section follows it (htmx takes it from the page itself), so its
  // Sent never lags the progress above; once sent, the answer carries no poll and it stops.
  const poll = live ? html` hx-get="/app/campaigns/${live.campaignId}" hx-select="#performance" hx-trigger="every 3s" hx-swap="outerHTML"` : html``;
  return html`<section class="card" id="performance" aria-labelledby="performance-title"${poll}>
    <h2 id="performance-title">Performance</h2>
    <ul class="stats metrics">
      ${reportMetrics(report).map(
        (metric) =>
          html`<li class="stat">
            <span class="label">${metric.label}</span
            ><span class="number">${metric.count.toLocaleString('en-US')}</span
            >${metric.rate === undefined ? '' : html`<span class="hint">${percent(metric.rate)} of delivered</span>`}
          </li>`,
      )}
    </ul>
    <p class="hint">
      Opens count contacts who opened or clicked (a click implies an open). Rates are of delivered
      emails.${scanners(report.machine_opens, 'open')}${scanners(report.machine_clicks, 'click')}
    </p>
    <h3>Opens and clicks per hour</h3>
    ${engagementChart(report.timeline)}
    <h3>Links</h3>
    ${
      report.links.length === 0
        ? html`<p>No reader has clicked a link yet.</p>`
        : html`<div class="table-wrap">
            <table class="stack-table">
              <caption class="visually-hidden">
                Links in the campaign by unique clicks
              </caption>
              <thead>
                <tr>
                  <th scope="col">Link</th>
                  <th scope="col">Unique clicks</th>
                  <th scope="col">Total clicks</th>
                </tr>
              </thead>
              <tbody>
                ${report.links.map(
                  (link) =>
                    html`<tr>
                      <td data-label="Link"><code>${link.url}</code></td>
                      <td data-label="Unique clicks">${link.unique_clicks}</td>
                      <td data-label="Total clicks">${link.total_clicks}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }
    <p>
      <a class="button secondary" href="/app/campaigns/${report.campaign_id}/report.csv" download
        >Download CSV</a
      >
    </p>
  </section>`;
}
