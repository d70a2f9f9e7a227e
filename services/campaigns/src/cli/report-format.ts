import type { CampaignReport } from '../domain/reports/campaign-report';

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

/** The summary rows: label, count, and the rate of delivered where there is one. */
const summaryOf = (report: CampaignReport): Array<[string, number, number | undefined]> => [
  ['Recipients', report.total_recipients, undefined],
  ['Sent', report.sent, undefined],
  ['Delivered', report.delivered, undefined],
  ['Bounced', report.bounced, report.bounce_rate],
  ['Failed', report.failed, undefined],
  ['Unsubscribed', report.unsubscribed, report.unsubscribe_rate],
  ['Opened (unique)', report.opened_unique, report.open_rate],
  ['Opened (total)', report.opened_total, undefined],
  ['Clicked (unique)', report.clicked_unique, report.click_rate],
  ['Clicked (total)', report.clicked_total, undefined],
  ['Machine opens', report.machine_opens, undefined],
  ['Machine clicks', report.machine_clicks, undefined],
];

/** Rows of cells as columns: the first left-aligned, the others right-aligned. */
function columns(rows: string[][]): string {
  const widths = rows[0]!.map((_, index) => Math.max(...rows.map((row) => row[index]!.length)));
  return rows
    .map((row) => row.map((cell, index) => (index === 0 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!))).join('  ').trimEnd())
    .join('\n');
}

/** The report for a person at a terminal: the figures, the hours that had opens or clicks, the links. */
export function reportTable(report: CampaignReport): string {
  const active = report.timeline.filter((entry) => entry.opens > 0 || entry.clicks > 0);
  const summary = columns([
    ['', 'count', 'of delivered'],
    ...summaryOf(report).map(([label, count, rate]) => [label, String(count), rate === undefined ? '' : percent(rate)]),
  ]);
  const hours =
    active.length === 0
      ? 'No reader opened or clicked in the first 48 hours.'
      : columns([['hour', 'first opens', 'first clicks'], ...active.map((entry) => [String(entry.hour), String(entry.opens), String(entry.clicks)])]);
  const links =
    report.links.length === 0
      ? 'No reader has clicked a link.'
      : columns([['link', 'unique clicks', 'total clicks'], ...report.links.map((link) => [link.url, String(link.unique_clicks), String(link.total_clicks)])]);
  return [
    `Campaign ${report.campaign_id} "${report.name}" (${report.status})`,
    summary,
    'Readers per hour from the start',
    hours,
    'Links',
    links,
  ].join('\n\n') + '\n';
}

/** A field as RFC 4180 quotes it; a leading = + - @ is prefixed so a spreadsheet never runs it as a formula. */
function cell(value: string | number): string {
  const text = typeof value === 'number' ? String(value) : /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const line = (values: Array<string | number>) => `${values.map(cell).join(',')}\r\n`;

/** The report for a spreadsheet: one metric per row (rates as fractions of delivered), a blank line, the links. */
export function reportCsv(report: CampaignReport): string {
  const { timeline: _timeline, links, ...figures } = report;
  const rows = Object.entries(figures).map(([metric, value]) => line([metric, typeof value === 'number' && metric.endsWith('_rate') ? value.toFixed(4) : value]));
  return [
    line(['metric', 'value']),
    ...rows,
    '\r\n',
    line(['url', 'unique_clicks', 'total_clicks']),
    ...links.map((link) => line([link.url, link.unique_clicks, link.total_clicks])),
  ].join('');
}
