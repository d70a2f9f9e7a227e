import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { IDENTITY_HEADER, signIdentity } from '@mailer/shared';
import type { ArrivalSink } from './arrival-sink';
import { drainArrivals, drainResult, type DrainResult } from './drain-result';
import { measureEventToEmail, type EventToEmailResult } from './event-to-email';
import type { BenchAccount } from './operator-setup';
import { databaseUrlOf } from './seed-contacts';

/** Contact ids far above the contacts service's and the backlog's, so projection rows never collide. */
const CAMPAIGN_CONTACT_ID_BASE = 2_000_000_000;
/** Only the recipients seeded here carry it: the campaign's audience is exactly them. */
const AUDIENCE_TAG = 'bench-campaign';
const DRAIN_TIMEOUT_MS = 600_000;

export interface CampaignSendResult {
  campaign: DrainResult;
  /** Workflow emails triggered by events while the campaign sends. */
  workflowsDuring: EventToEmailResult;
}

/** A call to the campaigns service's internal API, signed as the gateway (or the app) would. */
async function internal(env: NodeJS.ProcessEnv, baseUrl: string, accountId: number, method: string, path: string, body: unknown) {
  const payload = Buffer.from(JSON.stringify(body));
  const url = new URL(path, baseUrl);
  const identity = signIdentity(
    { accountId, requestId: randomUUID() },
    { method, path: `${url.pathname}${url.search}`, body: payload },
    env.INTERNAL_SIGNING_SECRET!,
  );
  const response = await fetch(url, { method, headers: { [IDENTITY_HEADER]: identity, 'content-type': 'application/json' }, body: payload });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { data: { id: number } };
}

/**
 * A campaign to `recipients` contacts (seeded into automation's contact projection with one
 * INSERT, tagged so they alone are the audience), the account's throttle set high: time from the
 * "send" request to the last email in the sink. Meanwhile sign-up events at `eventsPerS` trigger
 * workflow emails, whose event → email latency shows whether campaigns leave them their priority.
 */
export async function measureCampaignSend(options: {
  env: NodeJS.ProcessEnv;
  campaignsUrl: string;
  eventsUrl: string;
  sink: ArrivalSink;
  account: BenchAccount;
  runId: string;
  recipients: number;
  eventsPerS: number;
  stragglerWaitMs: number;
}): Promise<CampaignSendResult> {
  const { env, account, runId, recipients } = options;
  const { arrivals, tag } = drainArrivals(options.sink, 'campaign', runId);
  const client = new pg.Client({ connectionString: databaseUrlOf(env, 'automation') });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO contacts (account_id, contact_id, email, first_name, subscribed, bounced, tags, fact_at)
       SELECT $1, $2::bigint + g, 'campaign' || g || $4::text, 'Reader' || g, true, false, $5::jsonb, now()
       FROM generate_series(1, $3::int) AS g`,
      [account.accountId, CAMPAIGN_CONTACT_ID_BASE, recipients, tag, JSON.stringify([AUDIENCE_TAG])],
    );
  } finally {
    await client.end();
  }
  const call = (method: string, path: string, body: unknown) => internal(env, options.campaignsUrl, account.accountId, method, path, body);
  await call('PUT', '/internal/v1/sending-settings', { rate_per_second: 100_000 });
  const { data } = await call('POST', '/internal/v1/campaigns', {
    name: `Bench ${runId}`,
    title: 'News for {{ first_name }}',
    preview_text: 'What is new this month',
    html: '<html><body><p>Hi {{ first_name | default: "there" }}, here is what is new this month.</p></body></html>',
    audience_tags: [AUDIENCE_TAG],
  });
  await call('POST', `/internal/v1/campaigns/${data.id}/approve`, {});
  const workflows = measureEventToEmail({
    sink: options.sink,
    eventsUrl: options.eventsUrl,
    apiKey: account.apiKey,
    runId: `${runId}.during-campaign`,
    ratePerS: options.eventsPerS,
    seconds: 20,
    stragglerWaitMs: options.stragglerWaitMs,
  });
  const startedAt = Date.now();
  await call('POST', `/internal/v1/campaigns/${data.id}/send`, {});
  const campaign = await drainResult('campaign send', arrivals, recipients, startedAt, DRAIN_TIMEOUT_MS);
  return { campaign, workflowsDuring: await workflows };
}
