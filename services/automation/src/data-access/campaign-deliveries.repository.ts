import type { CampaignAudience, CampaignContent, Pool, PoolClient } from '@mailer/shared';

type Queryable = Pool | PoolClient;

export type DeliveryState = 'sending' | 'paused' | 'cancelled' | 'failed';

export interface CampaignDelivery {
  campaign_id: number;
  account_id: number;
  state: DeliveryState;
  control_version: number;
  content: CampaignContent;
  rate_per_second: number | null;
  failure_reason: string | null;
}

/** Who may be sent a campaign at all, over the contacts projection `c` (docs/consent.md). */
const CONSENTED = 'c.subscribed AND NOT c.bounced AND NOT c.deleted AND c.suppression IS NULL';

/**
 * Who receives a tag-ruled campaign, over the contacts projection `c`, given the parameter numbers
 * of account, lower-cased distinct tags and any|all. `lower_tags` (a migration) is the contact's
 * tags lower-cased, GIN-indexed: "any" is an overlap, "all" a containment.
 */
const audienceCondition = (account: string, tags: string, match: string) => `c.account_id = ${account} AND ${CONSENTED}
        AND (cardinality(${tags}::text[]) = 0
             OR (${match}::text = 'any' AND lower_tags(c.tags) && ${tags}::text[])
             OR (${match}::text = 'all' AND lower_tags(c.tags) @> ${tags}::text[]))`;

/** The deterministic Message-ID of a campaign's email to `c`, given the parameter numbers of campaign and mail domain. */
const messageIdSql = (campaign: string, domain: string) =>
  `'<' || substr(encode(sha256(convert_to('campaign:' || ${campaign}::text || ':' || c.contact_id::text, 'UTF8')), 'hex'), 1, 40) || '@' || ${domain}::text || '>'`;

const audienceTags = (audience: CampaignAudience) => [...new Set(audience.tags.map((tag) => tag.trim().toLowerCase()))];

/**
 * The recipients as they are fixed when the send starts: the tag rule, evaluated here over the
 * projection, or the member ids of a segment the contacts service evaluated (consent still checked here).
 */
export type FixedAudience = { kind: 'rule'; audience: CampaignAudience } | { kind: 'members'; contactIds: readonly number[] };

/** How many contacts the audience rule selects now (the app's preview before sending). */
export async function countAudience(db: Queryable, accountId: number, audience: CampaignAudience): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM contacts c WHERE ${audienceCondition('$1', '$2', '$3')}`,
    [accountId, audienceTags(audience), audience.match],
  );
  return rows[0]?.count ?? 0;
}

/** Whether a delivery of this campaign was started already (a redelivered send request). */
export async function deliveryExists(db: Queryable, campaignId: number): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM campaign_deliveries WHERE campaign_id = $1', [campaignId]);
  return rowCount === 1;
}

/**
 * Records the delivery and fixes its audience: a ledger row per subscribed, not bounced, not
 * deleted, not suppressed contact of the account that the audience selects (tags, any or all,
 * case-insensitively; or a segment's member ids, joined to the projection so an id automation does
 * not know, or may not email, gets no row), each with its deterministic Message-ID. Idempotent: a
 * redelivered request inserts nothing twice. Returns the rows inserted now.
 */
export async function startDelivery(
  client: PoolClient,
  delivery: { campaignId: number; accountId: number; content: CampaignContent; audience: FixedAudience; ratePerSecond: number | null },
  mailDomain: string,
  /** Set when the delivery cannot start (an invalid template, a deleted segment): recorded failed, with no recipients. */
  failureReason?: string,
): Promise<number> {
  const inserted = await client.query(
    `INSERT INTO campaign_deliveries (campaign_id, account_id, content, rate_per_second, state, failure_reason)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (campaign_id) DO NOTHING`,
    [delivery.campaignId, delivery.accountId, JSON.stringify(delivery.content), delivery.ratePerSecond, failureReason ? 'failed' : 'sending', failureReason ?? null],
  );
  if (inserted.rowCount === 0 || failureReason) return 0;
  const { audience } = delivery;
  // Streams inside Postgres: the tag rule's audience is never held by this process.
  const { rowCount } =
    audience.kind === 'rule'
      ? await client.query(
          `INSERT INTO campaign_sends (campaign_id, account_id, contact_id, message_id)
           SELECT $1::bigint, c.account_id, c.contact_id, ${messageIdSql('$1', '$5')}
             FROM contacts c
            WHERE ${audienceCondition('$2', '$3', '$4')}
            ORDER BY c.contact_id
           ON CONFLICT ON CONSTRAINT campaign_sends_once_key DO NOTHING`,
          [delivery.campaignId, delivery.accountId, audienceTags(audience.audience), audience.audience.match, mailDomain],
        )
      : await client.query(
          `INSERT INTO campaign_sends (campaign_id, account_id, contact_id, message_id)
           SELECT $1::bigint, c.account_id, c.contact_id, ${messageIdSql('$1', '$4')}
             FROM unnest($3::bigint[]) AS m (contact_id)
             JOIN contacts c ON c.account_id = $2 AND c.contact_id = m.contact_id
            WHERE ${CONSENTED}
            ORDER BY c.contact_id
           ON CONFLICT ON CONSTRAINT campaign_sends_once_key DO NOTHING`,
          [delivery.campaignId, delivery.accountId, audience.contactIds, mailDomain],
        );
  return rowCount ?? 0;
}

export async function findDelivery(db: Queryable, campaignId: number, forUpdate = false): Promise<CampaignDelivery | undefined> {
  const { rows } = await db.query<CampaignDelivery>(
    `SELECT campaign_id, account_id, state, control_version, content, rate_per_second, failure_reason
       FROM campaign_deliveries WHERE campaign_id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [campaignId],
  );
  return rows[0];
}

/** Deliveries whose rows may be claimed now. */
export async function sendingDeliveries(db: Queryable): Promise<CampaignDelivery[]> {
  const { rows } = await db.query<CampaignDelivery>({
    name: 'automation.sending-deliveries',
    text: `SELECT campaign_id, account_id, state, control_version, content, rate_per_second, failure_reason
             FROM campaign_deliveries WHERE state = 'sending' AND NOT reported_final ORDER BY campaign_id`,
  });
  return rows;
}

export async function setDeliveryState(
  db: Queryable,
  campaignId: number,
  change: { state?: DeliveryState; controlVersion?: number; failureReason?: string },
): Promise<void> {
  await db.query(
    `UPDATE campaign_deliveries
        SET state = coalesce($2, state), control_version = coalesce($3, control_version),
            failure_reason = coalesce($4, failure_reason), reported_final = false, updated_at = now()
      WHERE campaign_id = $1`,
    [campaignId, change.state ?? null, change.controlVersion ?? null, change.failureReason ?? null],
  );
}

/** Deliveries whose newest counts have not been published as final. */
export async function unreportedDeliveries(db: Queryable): Promise<Array<Pick<CampaignDelivery, 'campaign_id' | 'account_id' | 'state' | 'control_version' | 'failure_reason'>>> {
  const { rows } = await db.query<Pick<CampaignDelivery, 'campaign_id' | 'account_id' | 'state' | 'control_version' | 'failure_reason'>>({
    name: 'automation.unreported-deliveries',
    text: 'SELECT campaign_id, account_id, state, control_version, failure_reason FROM campaign_deliveries WHERE NOT reported_final',
  });
  return rows;
}

/** After final counts were confirmed by the broker: unless something changed since (control version). */
export async function markReportedFinal(db: Queryable, campaignId: number, controlVersion: number, countedAt: number): Promise<void> {
  await db.query(
    `UPDATE campaign_deliveries SET reported_final = true
      WHERE campaign_id = $1 AND control_version = $2 AND updated_at <= to_timestamp($3::float8 / 1e6)`,
    [campaignId, controlVersion, countedAt],
  );
}

/** The account a campaign's delivery belongs to (operator commands name the campaign alone). */
export async function campaignAccount(db: Queryable, campaignId: number): Promise<number | undefined> {
  const { rows } = await db.query<{ account_id: number }>('SELECT account_id FROM campaign_deliveries WHERE campaign_id = $1', [campaignId]);
  return rows[0]?.account_id;
}

/**
 * Someone unsubscribed through this campaign's link: counted once per contact, and the campaign's
 * counts are reported again (even after it was sent).
 */
export async function countCampaignUnsubscribe(db: Queryable, campaignId: number, contactId: number): Promise<void> {
  await db.query(
    `WITH counted AS (
       INSERT INTO campaign_unsubscribes (campaign_id, contact_id)
       SELECT $1, $2 WHERE EXISTS (SELECT 1 FROM campaign_deliveries WHERE campaign_id = $1)
       ON CONFLICT DO NOTHING RETURNING campaign_id)
     UPDATE campaign_deliveries SET reported_final = false, updated_at = now() WHERE campaign_id IN (SELECT campaign_id FROM counted)`,
    [campaignId, contactId],
  );
}
