import type { Campaign } from '../../domain/campaign';

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

/** The spec's Campaign object: exactly its fields, timestamps in ISO 8601 UTC with `Z`. */
export const campaignJson = (campaign: Campaign) => ({
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
