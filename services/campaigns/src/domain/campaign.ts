/** The statuses the spec allows; the database enforces the same list with a CHECK constraint. */
export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'sent', 'failed', 'approved', 'sending'] as const;

export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const isCampaignStatus = (value: string): value is CampaignStatus =>
  (CAMPAIGN_STATUSES as readonly string[]).includes(value);

/** A campaign as the spec shows it: no account id, no subject (stored and searched, never shown). */
export interface Campaign {
  id: number;
  name: string;
  title: string;
  status: CampaignStatus;
  preview_text: string;
  emails_sent: number;
  emails_failed: number;
  total_recipients: number;
  unsubscribes_count: number;
  send_at: Date | null;
  sent_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A campaign to store, as the operator import supplies it (defaults already applied). */
export interface NewCampaign {
  name: string;
  title: string;
  subject: string | null;
  status: CampaignStatus;
  preview_text: string;
  emails_sent: number;
  emails_failed: number;
  total_recipients: number;
  unsubscribes_count: number;
  send_at: Date | null;
  sent_at: Date | null;
  created_at: Date | null;
  updated_at: Date | null;
}
