import type { CampaignReport } from '../../../data-access/campaigns.client';
import { html, type SafeHtml } from '../html';

const WIDTH = 600;
const HEIGHT = 180;
const AXIS = 2;
const SERIES = [
  { key: 'opens', label: 'Opens', color: '#1f4fd1' },
  { key: 'clicks', label: 'Clicks', color: '#b45309' },
] as const;

/**
 * Opens and clicks per hour over the send's first 48 hours as paired bars in inline SVG (the
 * dashboard chart's form: no script, stretches to any width, labels in HTML under it), with the
 * same figures as a table for screen readers and exact numbers.
 */
export function engagementChart(timeline: CampaignReport['timeline']): SafeHtml {
  const peak = Math.max(0, ...timeline.flatMap((hour) => [hour.opens, hour.clicks]));
  const top = Math.max(1, peak);
  const slot = WIDTH / Math.max(timeline.length, 1);
  const bar = Math.max(1, (slot * 0.8) / SERIES.length);
  const scale = (HEIGHT - AXIS) / top;
  const sum = (key: 'opens' | 'clicks') => timeline.reduce((total, hour) => total + hour[key], 0);
  const bars = timeline.map((hour, index) =>
    SERIES.map((series, offset) => {
      const height = hour[series.key] * scale;
      return height > 0
        ? html`<rect
            x="${(index * slot + slot * 0.1 + offset * bar).toFixed(1)}"
            y="${(HEIGHT - AXIS - height).toFixed(1)}"
            width="${bar.toFixed(1)}"
            height="${height.toFixed(1)}"
            fill="${series.color}"
            ><title>Hour ${hour.hour + 1}: ${hour[series.key]} ${series.label.toLowerCase()}</title></rect
          >`
        : '';
    }),
  );
  return html`<figure class="chart">
      <svg
        viewBox="0 0 ${WIDTH} ${HEIGHT}"
        role="img"
        aria-labelledby="engagement-title engagement-desc"
        preserveAspectRatio="none"
      >
        <title id="engagement-title">Opens and clicks per hour, first ${timeline.length} hours</title>
        <desc id="engagement-desc">
          ${sum('opens')} opens and ${sum('clicks')} clicks by readers${peak > 0 ? html`; the busiest hour had ${peak}` : ''}.
        </desc>
        <line
          x1="0"
          y1="${HEIGHT - AXIS}"
          x2="${WIDTH}"
          y2="${HEIGHT - AXIS}"
          stroke="#8b95a1"
          stroke-width="2"
        />
        ${bars}
      </svg>
      <div class="chart-axis" aria-hidden="true">
        <span>send start</span><span>${peak > 0 ? html`busiest hour: ${peak}` : 'no reader yet'}</span><span>${timeline.length} h</span>
      </div>
      <figcaption>
        <ul class="legend">
          ${SERIES.map((series) => html`<li><span class="swatch" data-color="${series.key}"></span>${series.label}: ${sum(series.key).toLocaleString('en-US')}</li>`)}
        </ul>
      </figcaption>
    </figure>
    <details>
      <summary>Figures per hour</summary>
      <div class="table-wrap">
        <table class="stack-table">
          <thead>
            <tr>
              <th scope="col">Hour</th>
              <th scope="col">Opens</th>
              <th scope="col">Clicks</th>
            </tr>
          </thead>
          <tbody>
            ${timeline
              .filter((hour) => hour.opens + hour.clicks > 0)
              .map(
                (hour) =>
                  html`<tr>
                    <td data-label="Hour">${hour.hour + 1}</td>
                    <td data-label="Opens">${hour.opens}</td>
                    <td data-label="Clicks">${hour.clicks}</td>
                  </tr>`,
              )}
          </tbody>
        </table>
      </div>
    </details>`;
}
