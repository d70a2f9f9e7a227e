import type { CampaignAudience, CampaignContent } from '@mailer/shared';
import type { SendingSettings } from '../../data-access/sending-settings.repository';
import type { CampaignRecord } from './campaign-record';

/** The content automation renders: the campaign's own sender, else the account's default, else automation's. */
export const contentOf = (campaign: CampaignRecord, settings: SendingSettings): CampaignContent => ({
  subject: campaign.title,
  preview_text: campaign.preview_text,
  html: campaign.html ?? '',
  text: campaign.text_body,
  from_name: campaign.from_name ?? settings.from_name,
  from_address: campaign.from_address ?? settings.from_address,
});

/** The audience rule automation resolves; `segment_id` only when set, so a tag audience reads as before. */
export const audienceOf = (campaign: CampaignRecord): CampaignAudience => ({
  tags: campaign.audience_tags,
  match: campaign.audience_match,
  ...(campaign.audience_segment_id === null ? {} : { segment_id: campaign.audience_segment_id }),
});
