import { expectOk, type Caller, type SignedClient } from '@mailer/shared';

/** One entry of a contact's or the account's history, as automation records it. */
export interface HistoryEntry {
  source: 'w' | 'c';
  id: number;
  at: string;
  contact_id: number | null;
  email: string | null;
  workflow_id: number | null;
  workflow: string | null;
  step_id: string | null;
  campaign_id: number | null;
  outcome: string;
  reason: string | null;
  smtp_response: string | null;
  message_id: string | null;
}

export interface ContactRun {
  id: number;
  workflow_id: number;
  workflow: string;
  event_name: string;
  event_id: string;
  started_at: string;
  steps: Array<{ step_id: string; state: string; reason: string | null; due_at: string; sent_at: string | null }>;
}

export interface ContactHistory {
  runs: ContactRun[];
  entries: HistoryEntry[];
}

export interface DashboardSends {
  /** `opened` and `clicked`: emails first opened / first clicked that day by a reader. */
  daily: Array<{ day: string; sent: number; failed: number; skipped: number; opened: number; clicked: number }>;
  workflows_active: number;
  campaigns_in_flight: number;
  recent_failures: HistoryEntry[];
}

/**
 * Automation's figures for the dashboard and one contact's history (the delivery log, the runs
 * and the campaign ledger live there), signed for the signed-in account.
 */
export class AccountFiguresClient {
  constructor(private readonly client: SignedClient) {}

  async dashboard(caller: Caller): Promise<DashboardSends> {
    return expectOk<{ data: DashboardSends }>(await this.client.call(caller, 'GET', '/internal/v1/dashboard'), 'automation').data;
  }

  async contactHistory(caller: Caller, contactId: number): Promise<ContactHistory> {
    return expectOk<{ data: ContactHistory }>(await this.client.call(caller, 'GET', `/internal/v1/contacts/${contactId}/activity`), 'automation').data;
  }
}
