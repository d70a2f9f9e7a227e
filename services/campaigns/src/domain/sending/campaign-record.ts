import type { CampaignStatus } from '../campaign';

/** A campaign with everything sending it needs (the REST view shows only the spec's fields). */
export interface CampaignRecord {
  id: number;
  account_id: number;
  name: string;
  title: string;
  status: CampaignStatus;
  preview_text: string;
  html: string | null;
  text_body: string | null;
  from_name: string | null;
  from_address: string | null;
  audience_tags: string[];
  audience_match: 'any' | 'all';
  /** A segment of the contacts service; when set, its members are the recipients and the tags are ignored. */
  audience_segment_id: number | null;
  failure_reason: string | null;
  paused: boolean;
  control_version: number;
  progress_counted_at: number;
  emails_sent: number;
  emails_failed: number;
  /** Of emails_failed: refused as a bounce. */
  emails_bounced: number;
  total_recipients: number;
  unsubscribes_count: number;
  send_at: Date | null;
  sent_at: Date | null;
  approved_at: Date | null;
  started_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The content fields an operator or the app sets on a draft. */
export interface CampaignContentInput {
  name?: string | undefined;
  title?: string | undefined;
  preview_text?: string | undefined;
  html?: string | undefined;
  text_body?: string | null | undefined;
  from_name?: string | null | undefined;
  from_address?: string | null | undefined;
  audience_tags?: string[] | undefined;
  audience_match?: 'any' | 'all' | undefined;
  audience_segment_id?: number | null | undefined;
}
