import type { DashboardSends } from '../../../data-access/account-figures.client';
import { html, type SafeHtml } from '../html';

const WIDTH = 600;
const HEIGHT = 180;
const AXIS = 2;
const SERIES = [
  { key: 'sent', label: 'Sent', color: '#15803d' },
  { key: 'failed', label: 'Failed', color: '#b42318' },
  { key: 'skipped', label: 'Not sent (skipped)', color: '#8b95a1' },
] as const;
/** Drawn as lines over the bars: emails first opened / clicked that day by a reader. */
const LINES = [
  { key: 'opened', label: 'Opened', color: '#1f4fd1' },
  { key: 'clicked', label: 'Clicked', color: '#b45309' },
] as const;

/**
 * Sends per day as stacked bars, opens and clicks as lines over them in inline SVG (no script, no library; it stretches to the page's
 * width, so it fits 390 px; the dates are HTML under it, so text is never stretched), with the same figures as a table for screen readers and for reading exact numbers.
 */
export function sendsChart(daily: DashboardSends['daily']): SafeHtml {
  const totals = daily.map((day) => day.sent + day.failed + day.skipped);
  const top = Math.max(1, ...totals, ...daily.map((day) => day.opened));
  const slot = WIDTH / Math.max(daily.length, 1);
  const bar = Math.max(2, slot * 0.7);
  const scale = (HEIGHT - AXIS) / top;
  const sum = (key: 'sent' | 'failed' | 'skipped' | 'opened' | 'clicked') => daily.reduce((total, day) => total + day[key], 0);
  const bars = daily.map((day, index) => {
    let y = HEIGHT - AXIS;
    return SERIES.map((series) => {
      const height = day[series.key] * scale;
      y -= height;
      return height > 0
        ? html`<rect x="${(index * slot + (slot - bar) / 2).toFixed(1)}" y="${y.toFixed(1)}" width="${bar.toFixed(1)}" height="${height.toFixed(1)}" fill="${series.color}"><title>${day.day}: ${day[series.key]} ${series.label.toLowerCase()}</title></rect>`
        : '';
    });
  });
  const lines = LINES.map((series) => {
    const points = daily.map((day, index) => `${(index * slot + slot / 2).toFixed(1)},${(HEIGHT - AXIS - day[series.key] * scale).toFixed(1)}`).join(' ');
    return html`<polyline points="${points}" fill="none" stroke="${series.color}" stroke-width="2.5" vector-effect="non-scaling-stroke"${series.key === 'clicked' ? html` stroke-dasharray="6 3"` : ''}/>`;
  });
  const first = daily[0]?.day ?? '';
  const last = daily.at(-1)?.day ?? '';
  return html`<figure class="chart">
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="chart-title chart-desc" preserveAspectRatio="none">
<title id="chart-title">Emails per day, last ${daily.length} days</title>
<desc id="chart-desc">${sum('sent')} sent, ${sum('failed')} failed, ${sum('skipped')} not sent, ${sum('opened')} first opened and ${sum('clicked')} first clicked by readers, from ${first} to ${last}; the busiest day had ${top}.</desc>
<line x1="0" y1="${HEIGHT - AXIS}" x2="${WIDTH}" y2="${HEIGHT - AXIS}" stroke="#8b95a1" stroke-width="2"/>
${bars}
${lines}
</svg>
<div class="chart-axis" aria-hidden="true"><span>${first}</span><span>busiest day: ${top}</span><span>${last}</span></div>
<figcaption><ul class="legend">${[...SERIES, ...LINES].map((series) => html`<li><span class="swatch" data-color="${series.key}"></span>${series.label}: ${sum(series.key).toLocaleString('en-US')}</li>`)}</ul></figcaption>
</figure>
<details><summary>Figures per day</summary><div class="table-wrap"><table class="stack-table">
<thead><tr><th scope="col">Day</th><th scope="col">Sent</th><th scope="col">Failed</th><th scope="col">Not sent</th><th scope="col">Opened</th><th scope="col">Clicked</th></tr></thead>
<tbody>${daily.filter((day) => day.sent + day.failed + day.skipped + day.opened + day.clicked > 0).map((day) => html`<tr><td data-label="Day">${day.day}</td><td data-label="Sent">${day.sent}</td><td data-label="Failed">${day.failed}</td><td data-label="Not sent">${day.skipped}</td><td data-label="Opened">${day.opened}</td><td data-label="Clicked">${day.clicked}</td></tr>`)}</tbody>
</table></div></details>`;
}
