import { allowedActions } from '../../domain/sending/campaign-lifecycle';
import type { CampaignRecord } from '../../domain/sending/campaign-record';
import { campaignJson } from './campaign.json';

/**
 * The internal (app and operator) view of a campaign: the spec's fields, plus its content,
 * audience rule, lifecycle details and the actions allowed now (which buttons the app shows).
 */
export function campaignDetailJson(campaign: CampaignRecord) {
  return {
    ...campaignJson(campaign),
    account_id: campaign.account_id,
    subject: campaign.title,
    html: campaign.html,
    text: campaign.text_body,
    from_name: campaign.from_name,
    from_address: campaign.from_address,
    audience: { tags: campaign.audience_tags, match: campaign.audience_match, segment_id: campaign.audience_segment_id },
    paused: campaign.paused,
    failure_reason: campaign.failure_reason,
    approved_at: campaign.approved_at?.toISOString() ?? null,
    started_at: campaign.started_at?.toISOString() ?? null,
    allowed_actions: allowedActions(campaign),
  };
}
