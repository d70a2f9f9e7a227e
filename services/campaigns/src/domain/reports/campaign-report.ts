import { notFound } from '@mailer/shared';
import { findCampaignRecord } from '../../data-access/campaign-records.repository';
import { engagementTotals, firstHitsByHour, linkClickCounts, type EngagementTotals, type HourCounts, type LinkCounts } from '../../data-access/engagement-reads.repository';
import type { Queryable } from '../../data-access/queryable';
import type { CampaignStatus } from '../campaign';
import type { CampaignRecord } from '../sending/campaign-record';

/** The timeline covers the first two days from the send's start, hour by hour. */
export const TIMELINE_HOURS = 48;
/** Links beyond these (a URL personalised per contact makes one per reader) are left out of the report. */
export const REPORT_LINKS = 200;

/** A campaign's sending and engagement figures: the internal report route's `data` and the CLI's report. */
export interface CampaignReport {
  campaign_id: number;
  name: string;
  status: CampaignStatus;
  total_recipients: number;
  sent: number;
  delivered: number;
  bounced: number;
  failed: number;
  unsubscribed: number;
  opened_unique: number;
  opened_total: number;
  clicked_unique: number;
  clicked_total: number;
  machine_opens: number;
  machine_clicks: number;
  open_rate: number;
  click_rate: number;
  unsubscribe_rate: number;
  bounce_rate: number;
  timeline: HourCounts[];
  links: LinkCounts[];
}

const rateOf = (count: number, delivered: number) => (delivered === 0 ? 0 : count / delivered);

/** Every hour of the timeline, in order, zero where nothing happened. */
function timelineOf(hours: HourCounts[]): HourCounts[] {
  const byHour = new Map(hours.map((entry) => [entry.hour, entry]));
  return Array.from({ length: TIMELINE_HOURS }, (_, hour) => ({ hour, opens: byHour.get(hour)?.opens ?? 0, clicks: byHour.get(hour)?.clicks ?? 0 }));
}

/**
 * The report of figures already read. Delivered is what the recipients' servers accepted:
 * automation counts a bounce (a refusal at RCPT) among `failed`, never among `sent`, so no bounce
 * is in `sent` to take away. Rates are fractions of delivered.
 */
export function reportOf(campaign: CampaignRecord, totals: EngagementTotals, hours: HourCounts[], links: LinkCounts[]): CampaignReport {
  const delivered = campaign.emails_sent;
  return {
    campaign_id: campaign.id,
    name: campaign.name,
    status: campaign.status,
    total_recipients: campaign.total_recipients,
    sent: campaign.emails_sent,
    delivered,
    bounced: campaign.emails_bounced,
    failed: campaign.emails_failed,
    unsubscribed: campaign.unsubscribes_count,
    ...totals,
    open_rate: rateOf(totals.opened_unique, delivered),
    click_rate: rateOf(totals.clicked_unique, delivered),
    unsubscribe_rate: rateOf(campaign.unsubscribes_count, delivered),
    bounce_rate: rateOf(campaign.emails_bounced, delivered),
    timeline: timelineOf(hours),
    links,
  };
}

/**
 * One campaign's report for its account (another account's or an unknown id: not found). A
 * campaign not started yet has zeros; the timeline counts from `started_at`, or `sent_at` for a
 * campaign imported as sent.
 */
export async function campaignReport(db: Queryable, accountId: number, id: number): Promise<CampaignReport> {
  const campaign = await findCampaignRecord(db, accountId, id);
  if (!campaign) throw notFound('campaign');
  const start = campaign.started_at ?? campaign.sent_at;
  const [totals, hours, links] = await Promise.all([
    engagementTotals(db, id),
    start === null ? [] : firstHitsByHour(db, id, start, TIMELINE_HOURS),
    linkClickCounts(db, id, REPORT_LINKS),
  ]);
  return reportOf(campaign, totals, hours, links);
}
