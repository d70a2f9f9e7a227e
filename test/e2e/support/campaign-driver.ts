import { IDENTITY_HEADER } from '@mailer/shared';
import { signedIdentityFor, waitFor } from '@mailer/testing';
import type { Product } from '../stack-harness';

export interface CampaignView {
  id: number;
  name: string;
  title: string;
  status: string;
  emails_sent: number;
  emails_failed: number;
  total_recipients: number;
  unsubscribes_count: number;
  send_at: string | null;
  sent_at: string | null;
  paused: boolean;
  failure_reason: string | null;
}

/**
 * Drives campaigns the way the account app will: the services' internal APIs with the signed
 * identity (campaigns for content and lifecycle, automation for the audience count and outcomes),
 * and reads what a client sees over the public REST API with an API key.
 */
export function campaignDriver(product: Product, account: { accountId: number; key: string }) {
  async function call(base: string, method: string, path: string, body?: unknown) {
    const url = `${base}${path}`;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const response = await fetch(url, {
      method,
      headers: {
        [IDENTITY_HEADER]: signedIdentityFor(account.accountId, { method, url, body: payload }),
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: payload,
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> | undefined };
  }
  const campaigns = (method: string, path: string, body?: unknown) => call(product.campaigns.url, method, `/internal/v1${path}`, body);
  const automation = (method: string, path: string, body?: unknown) => call(product.automation.url, method, `/internal/v1${path}`, body);

  /** The campaign as the public REST API shows it. */
  async function rest(id: number): Promise<CampaignView> {
    const response = await product.api(account.key, 'GET', `/campaigns/${id}`);
    if (response.status !== 200) throw new Error(`GET /campaigns/${id}: ${response.status}`);
    return response.body?.data as CampaignView;
  }

  return {
    campaigns,
    automation,
    rest,
    async create(content: Record<string, unknown>): Promise<number> {
      const created = await campaigns('POST', '/campaigns', content);
      if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
      return (created.body?.data as { id: number }).id;
    },
    async act(id: number, action: string, body?: unknown) {
      const result = await campaigns('POST', `/campaigns/${id}/${action}`, body ?? {});
      if (result.status !== 200) throw new Error(`${action}: ${result.status} ${JSON.stringify(result.body)}`);
      return result.body?.data as CampaignView;
    },
    async setRate(ratePerSecond: number) {
      const saved = await campaigns('PUT', '/sending-settings', { rate_per_second: ratePerSecond });
      if (saved.status !== 200) throw new Error(`settings: ${saved.status}`);
    },
    /** Waits until the REST view satisfies `done`, returning every distinct status seen on the way. */
    async watchUntil(id: number, done: (view: CampaignView) => boolean, timeoutMs = 20_000) {
      const statuses: string[] = [];
      const view = await waitFor(
        async () => {
          const current = await rest(id);
          if (statuses.at(-1) !== current.status) statuses.push(current.status);
          return done(current) ? current : undefined;
        },
        { timeoutMs, intervalMs: 50, what: `campaign ${id}` },
      );
      return { view, statuses };
    },
    async recipients(id: number, outcome?: string) {
      const page = await automation('GET', `/campaigns/${id}/recipients${outcome ? `?outcome=${outcome}` : ''}`);
      return (page.body?.data ?? []) as Array<{ email: string; outcome: string; reason: string | null; smtp_response: string | null }>;
    },
  };
}

/** Creates contacts through the REST API and waits until automation's projection has every one. */
export async function createContacts(product: Product, key: string, accountId: number, contacts: Array<Record<string, unknown>>): Promise<number[]> {
  const ids: number[] = [];
  for (const contact of contacts) {
    const created = await product.api(key, 'POST', '/contacts', contact);
    if (created.status !== 201) throw new Error(`contact ${String(contact.email)}: ${created.status} ${JSON.stringify(created.body)}`);
    ids.push((created.body?.data as { id: number }).id);
  }
  await waitFor(
    async () => {
      const { rows } = await product.automation.pool.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM contacts WHERE account_id = $1 AND contact_id = ANY($2::bigint[])',
        [accountId, ids],
      );
      return rows[0]!.count === ids.length ? true : undefined;
    },
    { timeoutMs: 20_000, what: 'contacts in the automation projection' },
  );
  return ids;
}
