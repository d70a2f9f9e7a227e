import type { Pool } from '@mailer/shared';
import { UsageError } from '@mailer/shared';
import { campaignReport } from '../domain/reports/campaign-report';
import { campaignAccount, positiveId, type CommandOptions } from './campaign-commands';
import { reportCsv, reportTable } from './report-format';

/**
 * `campaigns report --id ID [--format csv]`: the same report the app's campaign page reads
 * (GET /internal/v1/campaigns/:id/report), as a table or as CSV.
 */
export async function runReportCommand(pool: Pool, options: CommandOptions): Promise<string> {
  if (options.format !== undefined && options.format !== 'csv') throw new UsageError(`--format takes csv, got "${options.format}"`);
  const id = positiveId(options.id, 'id');
  const report = await campaignReport(pool, await campaignAccount(pool, id), id);
  return options.format === 'csv' ? reportCsv(report) : reportTable(report);
}
