import { z } from 'zod';
import { defineContract } from './message-contract';

const id = z.number().int().positive();

/** What a campaign email is made of; Liquid templates rendered per recipient by automation. */
export const campaignContentSchema = z.object({
  subject: z.string().min(1),
  preview_text: z.string(),
  html: z.string().min(1),
  /** Null: automation generates the text part from the rendered HTML. */
  text: z.string().nullable(),
  /** Null: the sender configured in automation (MAIL_FROM). */
  from_name: z.string().nullable(),
  from_address: z.string().nullable(),
});
export type CampaignContent = z.infer<typeof campaignContentSchema>;

/**
 * Which contacts receive a campaign: subscribed, not bounced, not suppressed, narrowed by a segment
 * (evaluated by contacts when the send starts) or else optionally by tags.
 */
export const campaignAudienceSchema = z.object({
  tags: z.array(z.string()),
  /** `any`: at least one of `tags`; `all`: every one of them. Ignored when `tags` is empty or a segment is set. */
  match: z.enum(['any', 'all']),
  /** A segment of the contacts service; when set, the recipients are its members (tags are ignored). */
  segment_id: z.number().int().positive().nullable().optional(),
});
export type CampaignAudience = z.infer<typeof campaignAudienceSchema>;

/** Campaigns asks automation to send a campaign now: automation fixes the audience and sends once per contact. */
export const campaignSendRequestedV1 = defineContract(
  'campaign.send_requested.v1',
  z.object({
    account_id: id,
    campaign_id: id,
    content: campaignContentSchema,
    audience: campaignAudienceSchema,
    /** Emails per second for this account; null: automation's default (CAMPAIGN_RATE_PER_SECOND). */
    rate_per_second: z.number().int().positive().nullable(),
    occurred_at: z.string(),
  }),
);

/**
 * Campaigns changed how a campaign in flight should go on. `version` grows with every control of
 * one campaign, so a reordered or redelivered message never undoes a newer one.
 */
export const campaignControlV1 = defineContract(
  'campaign.control.v1',
  z.object({
    account_id: id,
    campaign_id: id,
    action: z.enum(['pause', 'resume', 'cancel', 'retry_failed']),
    version: z.number().int().positive(),
    occurred_at: z.string(),
  }),
);

/** One test email of a campaign's content to one address, before approval. */
export const campaignTestRequestedV1 = defineContract(
  'campaign.test_requested.v1',
  z.object({
    account_id: id,
    campaign_id: id,
    to: z.string().email(),
    content: campaignContentSchema,
    occurred_at: z.string(),
  }),
);

/**
 * Automation's counts of one campaign, read from its ledger: absolute numbers, so a lost or
 * repeated message is harmless and the newest `counted_at` wins. Sent about once a second per
 * campaign in flight, never once per email.
 */
export const campaignProgressV1 = defineContract(
  'campaign.progress.v1',
  z.object({
    account_id: id,
    campaign_id: id,
    total_recipients: z.number().int().min(0),
    sent: z.number().int().min(0),
    failed: z.number().int().min(0),
    skipped: z.number().int().min(0),
    unsubscribes: z.number().int().min(0),
    /** Of `failed`: refused by the recipient's server as a bounce. Optional: absent from older counts. */
    bounced: z.number().int().min(0).optional(),
    /** Every recipient has a final outcome (sent, failed, skipped). */
    finished: z.boolean(),
    /** Set when the send cannot go on (e.g. the SMTP server refuses everything). */
    failure_reason: z.string().nullable(),
    /** The newest control automation had applied when it counted: `finished` from before a retry is not final. */
    control_version: z.number().int().min(0),
    /** Monotonic per campaign (microseconds of the count's database time). */
    counted_at: z.number().int().min(0),
  }),
);
