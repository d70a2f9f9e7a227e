import { expectOk, type Caller, type SignedClient } from '@mailer/shared';
import type { Refused } from './automation.client';

export interface TrackingSettings {
  link_tracking: boolean;
  open_tracking: boolean;
}

/** Unique contacts of one email step over a window. */
export interface StepFigures {
  sent: number;
  opened: number;
  clicked: number;
  unsubscribed: number;
}

export interface StepStats {
  step_id: string;
  last_7_days: StepFigures;
  last_30_days: StepFigures;
}

/** One email sent to a contact, with what they did with it (automation's two ledgers). */
export interface ContactEmail {
  kind: 'workflow' | 'campaign';
  workflow_id: number | null;
  workflow_name: string | null;
  step_id: string | null;
  campaign_id: number | null;
  subject: string | null;
  outcome: string;
  sent_at: string | null;
  first_opened_at: string | null;
  first_clicked_at: string | null;
  clicks: number;
}

const messagesOf = (body: unknown): string[] => {
  const value = body as { errors?: unknown; error?: unknown } | undefined;
  if (Array.isArray(value?.errors)) return value.errors.map(String);
  return [typeof value?.error === 'string' ? value.error : 'refused'];
};

/**
 * Automation's engagement reads and the account's tracking settings (it renders the tracked links
 * and the open pixel, and records the hits against its ledgers), signed for the signed-in account.
 */
export class EngagementClient {
  constructor(private readonly client: SignedClient) {}

  async trackingSettings(caller: Caller): Promise<TrackingSettings> {
    return expectOk<{ data: TrackingSettings }>(
      await this.client.call(caller, 'GET', '/internal/v1/tracking-settings'),
      'tracking settings',
    ).data;
  }

  async saveTrackingSettings(
    caller: Caller,
    settings: TrackingSettings,
  ): Promise<TrackingSettings | Refused> {
    const answer = await this.client.call(caller, 'PUT', '/internal/v1/tracking-settings', settings);
    if (answer.status === 422 || answer.status === 400) return { refused: messagesOf(answer.body) };
    return expectOk<{ data: TrackingSettings }>(answer, 'tracking settings').data;
  }

  async stepStats(caller: Caller, workflowId: number): Promise<StepStats[]> {
    return expectOk<{ data: StepStats[] }>(
      await this.client.call(caller, 'GET', `/internal/v1/workflows/${workflowId}/step-stats`),
      'workflow',
    ).data;
  }

  async contactEmails(caller: Caller, contactId: number): Promise<ContactEmail[]> {
    return expectOk<{ data: ContactEmail[] }>(
      await this.client.call(caller, 'GET', `/internal/v1/contacts/${contactId}/emails`),
      'automation',
    ).data;
  }
}
