import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError, CommonErrorCodes, notFound, type Pool, UsageError } from '@mailer/shared';
import { findCampaignAccount } from '../data-access/campaign-records.repository';
import { saveSendingSettings } from '../data-access/sending-settings.repository';
import { changeCampaignStatus, type DriveAction } from '../domain/sending/change-campaign-status';
import { createCampaign, updateCampaign } from '../domain/sending/compose-campaign';
import { testSendCampaign } from '../domain/sending/test-send-campaign';
import { campaignDetailJson } from '../entry-points/api/campaign-detail.json';

/** The parsed options of one campaign command (node:util parseArgs values). */
export interface CommandOptions {
  id?: string | undefined;
  account?: string | undefined;
  name?: string | undefined;
  subject?: string | undefined;
  html?: string | undefined;
  text?: string | undefined;
  'preview-text'?: string | undefined;
  'from-name'?: string | undefined;
  'from-address'?: string | undefined;
  tag?: string[] | undefined;
  'all-tags'?: boolean | undefined;
  to?: string | undefined;
  at?: string | undefined;
  rate?: string | undefined;
  format?: string | undefined;
}

// Bad arguments: the CLI exits 2 with its usage text (one class for every service's CLI).
export { UsageError };

const ID = /^[1-9][0-9]{0,14}$/;

export function positiveId(value: string | undefined, option: string): number {
  if (value === undefined) throw new UsageError(`--${option} is required`);
  if (!ID.test(value)) throw new UsageError(`--${option} must be a positive integer id, got "${value}"`);
  return Number(value);
}

async function fileText(cwd: string, file: string | undefined): Promise<string | undefined> {
  if (file === undefined) return undefined;
  try {
    return await readFile(path.resolve(cwd, file), 'utf8');
  } catch (error) {
    throw new AppError(CommonErrorCodes.BAD_REQUEST, `cannot read ${file}: ${(error as Error).message}`);
  }
}

/** The content options given, as the internal API's field names (absent options stay absent). */
async function contentOf(options: CommandOptions, cwd: string): Promise<Record<string, unknown>> {
  const content: Record<string, unknown> = {
    name: options.name,
    title: options.subject,
    preview_text: options['preview-text'],
    html: await fileText(cwd, options.html),
    text_body: await fileText(cwd, options.text),
    from_name: options['from-name'],
    from_address: options['from-address'],
    audience_tags: options.tag,
    audience_match: options['all-tags'] ? 'all' : options.tag ? 'any' : undefined,
  };
  return Object.fromEntries(Object.entries(content).filter(([, value]) => value !== undefined));
}

/** The campaign's account: operator commands name a campaign by id alone. */
export async function campaignAccount(pool: Pool, id: number): Promise<number> {
  const account = await findCampaignAccount(pool, id);
  if (account === undefined) throw notFound('campaign');
  return account;
}

const DRIVE: Record<string, DriveAction> = {
  approve: 'approve',
  'return-to-draft': 'return_to_draft',
  send: 'send',
  pause: 'pause',
  resume: 'resume',
  cancel: 'cancel',
  'retry-failed': 'retry_failed',
};

/**
 * Runs one campaign command against the campaigns database and returns its JSON. Commands that
 * need automation (sending, test sends, controls) commit a request to the outbox: the running
 * campaigns service publishes it within CAMPAIGNS_OUTBOX_POLL_MS.
 */
export async function runCampaignCommand(
  pool: Pool,
  command: string,
  options: CommandOptions,
  cwd: string,
): Promise<unknown> {
  if (command === 'create') {
    const accountId = positiveId(options.account, 'account');
    if (options.name === undefined || options.subject === undefined || options.html === undefined) {
      throw new UsageError('create needs --account, --name, --subject and --html');
    }
    return { data: campaignDetailJson(await createCampaign(pool, accountId, await contentOf(options, cwd))) };
  }
  if (command === 'settings') {
    const accountId = positiveId(options.account, 'account');
    const rate = options.rate === undefined ? undefined : positiveId(options.rate, 'rate');
    const settings = {
      rate_per_second: rate,
      from_name: options['from-name'],
      from_address: options['from-address'],
    };
    return { data: await saveSendingSettings(pool, accountId, settings) };
  }
  const id = positiveId(options.id, 'id');
  const accountId = await campaignAccount(pool, id);
  if (command === 'update')
    return {
      data: campaignDetailJson(await updateCampaign(pool, accountId, id, await contentOf(options, cwd))),
    };
  if (command === 'test') {
    if (options.to === undefined) throw new UsageError('test needs --to EMAIL');
    return {
      data: { campaign_id: id, ...(await testSendCampaign(pool, accountId, id, options.to)), queued: true },
    };
  }
  const action = DRIVE[command];
  if (!action) throw new UsageError(`unknown campaigns command "${command}"`);
  let sendAt: Date | undefined;
  if (options.at !== undefined) {
    sendAt = new Date(options.at);
    if (!/^\d{4}-\d\d-\d\dT/.test(options.at) || Number.isNaN(sendAt.getTime()))
      throw new UsageError(`--at must be an ISO 8601 timestamp, got "${options.at}"`);
  }
  return { data: campaignDetailJson(await changeCampaignStatus(pool, accountId, id, action, { sendAt })) };
}
