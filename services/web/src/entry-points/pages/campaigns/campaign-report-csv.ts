import type { CampaignReport } from '../../../data-access/campaigns.client';
import { reportMetrics } from './campaign-performance';

/** A field as RFC 4180 quotes it; a leading = + - @ is prefixed so a spreadsheet never runs it as a formula. */
const cell = (value: string | number) => {
  const text = typeof value === 'number' ? String(value) : /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};
const line = (values: Array<string | number>) => `${values.map(cell).join(',')}\r\n`;

/** The report as one CSV: the metrics (count and rate), a blank line, then the links. */
export function campaignReportCsv(report: CampaignReport): string {
  const metrics = reportMetrics(report).map((metric) =>
    line([metric.label.toLowerCase(), metric.count, metric.rate === undefined ? '' : metric.rate.toFixed(4)]),
  );
  const machine = [
    line(['machine_opens', report.machine_opens, '']),
    line(['machine_clicks', report.machine_clicks, '']),
  ];
  const links = report.links.map((link) => line([link.url, link.unique_clicks, link.total_clicks]));
  return [
    line(['metric', 'count', 'rate']),
    ...metrics,
    ...machine,
    '\r\n',
    line(['url', 'unique_clicks', 'total_clicks']),
    ...links,
  ].join('');
}
