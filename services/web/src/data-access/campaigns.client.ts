import { AppError, type Caller, CommonErrorCodes, expectOk, type SignedClient } from '@mailer/shared';
import type { Refused } from './automation.client';

export type CampaignStatus = 'draft' | 'approved' | 'scheduled' | 'sending' | 'sent' | 'failed';

/** A campaign as the public API lists it (the spec's fields, live counts). */
export interface CampaignSummary {
  id: number;
  name: string;
  title: string;
  status: CampaignStatus;
  preview_text: string;
  emails_sent: number;
  emails_failed: number;
  total_recipients: number;
  unsubscribes_count: number;
  send_at: string | null;
  sent_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The internal view: content, audience rule, lifecycle details and which actions are allowed now. */
export interface CampaignDetail extends CampaignSummary {
  subject: string;
  html: string;
  text: string | null;
  from_name: string | null;
  from_address: string | null;
  /** A segment, when set, chooses the recipients and the tags are ignored. */
  audience: { tags: string[]; match: 'any' | 'all'; segment_id?: number | null };
  paused: boolean;
  failure_reason: string | null;
  approved_at: string | null;
  started_at: string | null;
  allowed_actions: string[];
}

export interface CampaignPage {
  data: CampaignSummary[];
  meta: { current_page: number; total_pages: number; total_count: number; per_page: number };
}

/** What the compose form writes (the internal API's field names). */
export interface CampaignInput {
  name: string;
  title: string;
  preview_text: string;
  html: string;
  text_body: string | null;
  audience_tags: string[];
  audience_match: 'any' | 'all';
  audience_segment_id: number | null;
}

/** A campaign's engagement as the campaigns service counts it; rates are fractions of delivered. */
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
  /** 48 hours from the send's start, one entry per hour. */
  timeline: Array<{ hour: number; opens: number; clicks: number }>;
  links: Array<{ url: string; unique_clicks: number; total_clicks: number }>;
}

export interface SendingSettings {
  rate_per_second: number | null;
  from_name: string | null;
  from_address: string | null;
}

/** The lifecycle actions the app's buttons post, by their internal API path. */
export const DRIVE_ACTIONS = ['approve', 'return-to-draft', 'send', 'pause', 'resume', 'cancel', 'retry-failed'] as const;
export type DriveAction = (typeof DRIVE_ACTIONS)[number];

const messagesOf = (body: unknown): string[] => {
  const value = body as { errors?: unknown; error?: unknown } | undefined;
  if (Array.isArray(value?.errors)) return value.errors.map(String);
  return [typeof value?.error === 'string' ? value.error : 'refused'];
};

const campaignPath = (id: string | number) => {
  if (!/^[1-9]\d{0,14}$/.test(String(id))) throw new AppError(CommonErrorCodes.NOT_FOUND, 'campaign not found');
  return `/internal/v1/campaigns/${id}`;
};

/**
 * The campaigns service for the signed-in account: the list through the public read route (live
 * counts), everything else through its internal API. 422 (invalid content) and 409 (not allowed
 * now) come back as reasons for the page to show; another account's id is 404.
 */
export class CampaignsClient {
  constructor(private readonly client: SignedClient) {}

  private async send<T>(caller: Caller, method: 'GET' | 'POST' | 'PATCH' | 'PUT', path: string, body?: unknown): Promise<T | Refused> {
    const answer = await this.client.call(caller, method, path, body);
    if (answer.status === 422 || answer.status === 409 || answer.status === 400) return { refused: messagesOf(answer.body) };
    return expectOk<{ data: T }>(answer, 'campaigns').data;
  }

  async list(caller: Caller, page: number, perPage: number, status?: string): Promise<CampaignPage> {
    const query = new URLSearchParams({ page: String(page), per_page: String(perPage) });
    if (status) query.set('status', status);
    const answer = await this.client.call(caller, 'GET', `/api/v1/campaigns?${query.toString()}`);
    if (answer.status === 422) throw new AppError(CommonErrorCodes.BAD_REQUEST, messagesOf(answer.body).join('; '));
    return expectOk<CampaignPage>(answer, 'campaigns');
  }

  async get(caller: Caller, id: string | number): Promise<CampaignDetail> {
    return expectOk<{ data: CampaignDetail }>(await this.client.call(caller, 'GET', campaignPath(id)), 'campaign').data;
  }

  create(caller: Caller, input: CampaignInput) {
    return this.send<CampaignDetail>(caller, 'POST', '/internal/v1/campaigns', input);
  }

  update(caller: Caller, id: number, input: CampaignInput) {
    return this.send<CampaignDetail>(caller, 'PATCH', campaignPath(id), input);
  }

  test(caller: Caller, id: number, to: string) {
    return this.send<unknown>(caller, 'POST', `${campaignPath(id)}/test`, { to });
  }

  drive(caller: Caller, id: number, action: DriveAction, sendAt?: string) {
    return this.send<CampaignDetail>(caller, 'POST', `${campaignPath(id)}/${action}`, sendAt === undefined ? {} : { send_at: sendAt });
  }

  async report(caller: Caller, id: string | number): Promise<CampaignReport> {
    return expectOk<{ data: CampaignReport }>(await this.client.call(caller, 'GET', `${campaignPath(id)}/report`), 'campaign report').data;
  }

  async sendingSettings(caller: Caller): Promise<SendingSettings> {
    return expectOk<{ data: SendingSettings }>(await this.client.call(caller, 'GET', '/internal/v1/sending-settings'), 'sending settings').data;
  }

  saveSendingSettings(caller: Caller, settings: SendingSettings) {
    return this.send<SendingSettings>(caller, 'PUT', '/internal/v1/sending-settings', settings);
  }
}
