import type { StepFigures, StepStats } from '../../../data-access/engagement.client';
import { html, type SafeHtml } from '../html';

const share = (part: number, sent: number) => (sent === 0 ? '' : ` (${Math.round((part / sent) * 100)}%)`);
const figures = (stats: StepFigures) => [stats.sent, stats.opened, stats.clicked, stats.unsubscribed];

/** One cell: the unique contacts, and their share of those sent (sent itself has none). */
const cells = (stats: StepFigures, window: string) =>
  figures(stats).map((value, index) => {
    const column = ['Sent', 'Opened', 'Clicked', 'Unsubscribed'][index]!;
    return html`<td data-label="${column}, ${window}">
      ${value.toLocaleString('en-US')}${index === 0 ? '' : share(value, stats.sent)}
    </td>`;
  });

/**
 * A workflow's figures per email step (automation counts unique contacts), the last 7 days beside
 * the last 30, so a step that stopped working shows against its own past.
 */
export function stepStatsCard(stats: StepStats[]): SafeHtml {
  return html`<section class="card" aria-labelledby="step-stats-title">
    <h2 id="step-stats-title">Email steps: sent, opened, clicked, unsubscribed</h2>
    ${
      stats.length === 0
        ? html`<p>This workflow has no email step yet.</p>`
        : html`<div class="table-wrap">
            <table class="stack-table">
              <caption class="hint">
                Unique contacts per step; the share is of those sent. Opens count only where open tracking is
                on.
              </caption>
              <thead>
                <tr>
                  <th scope="col">Step</th>
                  <th scope="col">Window</th>
                  <th scope="col">Sent</th>
                  <th scope="col">Opened</th>
                  <th scope="col">Clicked</th>
                  <th scope="col">Unsubscribed</th>
                </tr>
              </thead>
              <tbody>
                ${stats.map(
                  (step) =>
                    html`<tr>
                        <th scope="rowgroup" rowspan="2" data-label="Step"><code>${step.step_id}</code></th>
                        <td data-label="Window">7 days</td>
                        ${cells(step.last_7_days, '7 days')}
                      </tr>
                      <tr>
                        <td data-label="Window">30 days</td>
                        ${cells(step.last_30_days, '30 days')}
                      </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }
  </section>`;
}
