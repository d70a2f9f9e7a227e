import { expectOk, type Caller, type SignedClient } from '@mailer/shared';

/** A workflow as the workflow file format holds it (automation validates it; the app only edits it). */
export interface WorkflowDocument {
  name: string;
  trigger: { event: string; where?: Array<{ property: string; op: string; value?: string | number | boolean }> };
  transactional?: boolean;
  fallbacks?: Record<string, string | number | boolean>;
  steps: Array<
    | { id: string; type: 'email'; subject: string; html?: string; text?: string }
    | { id: string; type: 'wait'; duration: string }
    | { id: string; type: 'branch'; if: { clicked: string; within: string }; then: string; else?: string }
  >;
}

export interface WorkflowSummary {
  id: number;
  name: string;
  trigger_event: string;
  enabled: boolean;
  steps: number;
  sent_last_7_days: number;
  updated_at: string;
}

export interface StoredWorkflow {
  id: number;
  name: string;
  enabled: boolean;
  definition: WorkflowDocument;
  updated_at: string;
}

export interface RenderedSample {
  subject: string;
  html: string | null;
  text: string;
  known_contact: boolean;
}

export interface ActivityEntry {
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

export interface ActivityFilter {
  email?: string | undefined;
  contact?: string | undefined;
  workflow?: string | undefined;
  campaign?: string | undefined;
  outcome?: string | undefined;
  before?: string | undefined;
}

export interface CampaignRecipient {
  contact_id: number;
  email: string | null;
  outcome: 'sent' | 'failed' | 'skipped' | 'pending';
  reason: string | null;
  smtp_response: string | null;
  attempts: number;
  retried: boolean;
  sent_at: string | null;
}

export interface CampaignContentSample {
  subject: string;
  preview_text: string;
  html: string;
  text: string | null;
  from_name: string | null;
  from_address: string | null;
}

/** The service's reasons for refusing input (422), each usually prefixed with the field's path. */
export interface Refused {
  refused: string[];
}

export const isRefused = (value: unknown): value is Refused => typeof value === 'object' && value !== null && 'refused' in value;

const messagesOf = (body: unknown): string[] => {
  const value = body as { errors?: unknown; error?: unknown } | undefined;
  if (Array.isArray(value?.errors)) return value.errors.map(String);
  return [typeof value?.error === 'string' ? value.error : 'refused'];
};

/**
 * Automation's internal API for the signed-in account: workflows, previews and test sends, the
 * activity log, campaign audiences and per-recipient outcomes. Another account's ids are 404.
 */
export class AutomationClient {
  constructor(private readonly client: SignedClient) {}

  /** The body of a 2xx; a 422 (or 400) as the reasons; anything else the page's error. */
  private async send<T>(caller: Caller, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T | Refused> {
    const answer = await this.client.call(caller, method, path, body);
    if (answer.status === 422 || answer.status === 400) return { refused: messagesOf(answer.body) };
    return expectOk<{ data: T }>(answer, 'automation').data;
  }

  async workflows(caller: Caller): Promise<WorkflowSummary[]> {
    return expectOk<{ data: WorkflowSummary[] }>(await this.client.call(caller, 'GET', '/internal/v1/workflows'), 'workflows').data;
  }

  async workflow(caller: Caller, id: string): Promise<StoredWorkflow> {
    return expectOk<{ data: StoredWorkflow }>(await this.client.call(caller, 'GET', `/internal/v1/workflows/${encodeURIComponent(id)}`), 'workflow').data;
  }

  createWorkflow(caller: Caller, document: unknown) {
    return this.send<{ id: number }>(caller, 'POST', '/internal/v1/workflows', document);
  }

  updateWorkflow(caller: Caller, id: number, document: unknown) {
    return this.send<StoredWorkflow>(caller, 'PUT', `/internal/v1/workflows/${id}`, document);
  }

  importWorkflows(caller: Caller, document: unknown) {
    return this.send<Array<{ id: number; name: string; replaced: boolean }>>(caller, 'POST', '/internal/v1/workflows/import', document);
  }

  async setEnabled(caller: Caller, id: number, enabled: boolean): Promise<void> {
    expectOk(await this.client.call(caller, 'POST', `/internal/v1/workflows/${id}/${enabled ? 'enable' : 'disable'}`), 'workflow');
  }

  previewStep(caller: Caller, id: number, stepId: string, contactEmail: string) {
    return this.send<RenderedSample>(caller, 'POST', `/internal/v1/workflows/${id}/steps/${encodeURIComponent(stepId)}/preview`, { contact_email: contactEmail });
  }

  testStep(caller: Caller, id: number, stepId: string, to: string) {
    return this.send<{ outcome: 'sent' | 'failed'; reason: string | null }>(caller, 'POST', `/internal/v1/workflows/${id}/steps/${encodeURIComponent(stepId)}/test`, { to });
  }

  previewCampaign(caller: Caller, content: CampaignContentSample, contactEmail: string) {
    return this.send<RenderedSample>(caller, 'POST', '/internal/v1/previews/campaign', { content, contact_email: contactEmail });
  }

  async activity(caller: Caller, filter: ActivityFilter): Promise<{ data: ActivityEntry[]; next_before: string | null } | Refused> {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(filter)) if (value) query.set(key, value);
    const answer = await this.client.call(caller, 'GET', `/internal/v1/activity?${query.toString()}`);
    if (answer.status === 422) return { refused: messagesOf(answer.body) };
    return expectOk<{ data: ActivityEntry[]; next_before: string | null }>(answer, 'activity');
  }

  async audienceCount(caller: Caller, tags: string[], match: 'any' | 'all'): Promise<number> {
    const query = new URLSearchParams({ match });
    for (const tag of tags) query.append('tag', tag);
    return expectOk<{ data: { count: number } }>(await this.client.call(caller, 'GET', `/internal/v1/audience-count?${query.toString()}`), 'audience').data.count;
  }

  async recipients(caller: Caller, campaignId: number, outcome: string | undefined, after: string | undefined) {
    const query = new URLSearchParams({ limit: '100' });
    if (outcome) query.set('outcome', outcome);
    if (after) query.set('after', after);
    const answer = await this.client.call(caller, 'GET', `/internal/v1/campaigns/${campaignId}/recipients?${query.toString()}`);
    if (answer.status === 422) return { refused: messagesOf(answer.body) } satisfies Refused;
    return expectOk<{ data: CampaignRecipient[]; next_after: number | null }>(answer, 'recipients');
  }
}
