import { z } from 'zod';
import { pageOf } from '@mailer/shared';
import { CAMPAIGN_STATUSES, type Campaign } from '../../domain/campaign';

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

const timestamp = z.iso.datetime().describe('ISO 8601 UTC timestamp.');
const count = z.number().int().describe('Count.');

/** The spec's Campaign object; the mapper is typed against it and the OpenAPI document is built from it. */
export const campaignSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  title: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  preview_text: z.string(),
  emails_sent: count,
  emails_failed: count,
  total_recipients: count,
  unsubscribes_count: count,
  send_at: timestamp.nullable().describe('ISO 8601 UTC timestamp; null when not scheduled.'),
  sent_at: timestamp.nullable().describe('ISO 8601 UTC timestamp; null when not sent.'),
  created_at: timestamp,
  updated_at: timestamp,
});

export const campaignPageSchema = pageOf(campaignSchema);

export type CampaignJson = z.output<typeof campaignSchema>;
export type CampaignPageJson = z.output<typeof campaignPageSchema>;

/** The spec's Campaign object: exactly its fields, timestamps in ISO 8601 UTC with `Z`. */
export const campaignJson = (campaign: Campaign): CampaignJson => ({
  id: campaign.id,
  name: campaign.name,
  title: campaign.title,
  status: campaign.status,
  preview_text: campaign.preview_text,
  emails_sent: campaign.emails_sent,
  emails_failed: campaign.emails_failed,
  total_recipients: campaign.total_recipients,
  unsubscribes_count: campaign.unsubscribes_count,
  send_at: iso(campaign.send_at),
  sent_at: iso(campaign.sent_at),
  created_at: campaign.created_at.toISOString(),
  updated_at: campaign.updated_at.toISOString(),
});
