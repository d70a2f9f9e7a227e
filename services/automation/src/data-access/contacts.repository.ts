import { columnsOf, type ContactSnapshot, type Pool, type PoolClient, type SuppressionReason } from '@mailer/shared';

/** The projection of one contact, as automation last learned it. */
export interface ProjectedContact {
  account_id: number;
  contact_id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  subscribed: boolean;
  bounced: boolean;
  deleted: boolean;
  /** The address's standing suppression as the contacts service last said (or as we learned it first). */
  suppression: SuppressionReason | null;
  tags: string[];
  custom_properties: Record<string, unknown>;
}

type Queryable = Pool | PoolClient;

export const PROJECTED_COLUMNS = 'account_id, contact_id, email, first_name, last_name, subscribed, bounced, deleted, suppression, tags, custom_properties';

/** One contact fact's snapshot, as the projection stores it. */
export interface SnapshotFact {
  accountId: number;
  contact: ContactSnapshot;
  factAt: string;
}

/**
 * Applies snapshots in one statement, each unless a newer fact was already applied (facts may
 * arrive out of order). One row may not be written twice by one INSERT … ON CONFLICT, so of several
 * facts about one contact only the newest goes in (the later one among equals, as applying them in
 * turn would leave it).
 */
export async function applyContactSnapshots(client: Queryable, facts: readonly SnapshotFact[]): Promise<void> {
  const newest = new Map<string, SnapshotFact>();
  for (const fact of facts) {
    const key = `${fact.accountId}:${fact.contact.id}`;
    const held = newest.get(key);
    if (!held || Date.parse(held.factAt) <= Date.parse(fact.factAt)) newest.set(key, fact);
  }
  const rows = [...newest.values()];
  await client.query({
    name: 'automation.apply-contact-snapshots',
    text: `INSERT INTO contacts (account_id, contact_id, email, first_name, last_name, subscribed, bounced, deleted, tags, custom_properties, fact_at, suppression)
     SELECT account_id, contact_id, email, first_name, last_name, subscribed, bounced, false, tags::jsonb, custom_properties::jsonb, fact_at, suppression
       FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::boolean[], $8::text[], $9::text[], $10::timestamptz[], $11::text[])
         AS f (account_id, contact_id, email, first_name, last_name, subscribed, bounced, tags, custom_properties, fact_at, suppression)
     ON CONFLICT (account_id, contact_id) DO UPDATE
       SET email = EXCLUDED.email, first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name,
           subscribed = EXCLUDED.subscribed, bounced = EXCLUDED.bounced, deleted = false, tags = EXCLUDED.tags,
           suppression = EXCLUDED.suppression,
           custom_properties = EXCLUDED.custom_properties, fact_at = EXCLUDED.fact_at, updated_at = now()
       WHERE contacts.fact_at <= EXCLUDED.fact_at`,
    values: columnsOf(rows, [
      (fact) => fact.accountId,
      (fact) => fact.contact.id,
      (fact) => fact.contact.email,
      (fact) => fact.contact.first_name,
      (fact) => fact.contact.last_name,
      (fact) => fact.contact.subscribed,
      (fact) => fact.contact.bounced,
      (fact) => JSON.stringify(fact.contact.tags),
      (fact) => JSON.stringify(fact.contact.custom_properties),
      (fact) => fact.factAt,
      (fact) => fact.contact.suppression ?? null,
    ]),
  });
}

export async function markContactDeleted(client: Queryable, accountId: number, contactId: number, email: string, factAt: string): Promise<void> {
  await client.query(
    `INSERT INTO contacts (account_id, contact_id, email, subscribed, bounced, deleted, fact_at)
     VALUES ($1, $2, $3, false, false, true, $4)
     ON CONFLICT (account_id, contact_id) DO UPDATE SET deleted = true, fact_at = EXCLUDED.fact_at, updated_at = now()
       WHERE contacts.fact_at <= EXCLUDED.fact_at`,
    [accountId, contactId, email, factAt],
  );
}

/**
 * Marks the projected contact unsubscribed unless it already is. 'unknown' when automation has no
 * projection of it (the request still goes to the contacts service, which owns the address).
 */
export async function markUnsubscribedOnce(client: Queryable, accountId: number, contactId: number): Promise<'changed' | 'already' | 'unknown'> {
  const { rows } = await client.query<{ changed: boolean }>(
    `WITH target AS (SELECT subscribed, suppression FROM contacts WHERE account_id = $1 AND contact_id = $2 FOR UPDATE),
     updated AS (
       UPDATE contacts SET subscribed = false, suppression = coalesce(suppression, 'unsubscribed'), fact_at = greatest(fact_at, now()), updated_at = now()
       WHERE account_id = $1 AND contact_id = $2 AND (subscribed OR suppression IS NULL) RETURNING 1)
     SELECT EXISTS (SELECT 1 FROM updated) AS changed FROM target`,
    [accountId, contactId],
  );
  if (rows.length === 0) return 'unknown';
  return rows[0]!.changed ? 'changed' : 'already';
}

export async function findContact(client: Queryable, accountId: number, contactId: number): Promise<ProjectedContact | undefined> {
  const { rows } = await client.query<ProjectedContact>(
    `SELECT ${PROJECTED_COLUMNS} FROM contacts WHERE account_id = $1 AND contact_id = $2`,
    [accountId, contactId],
  );
  return rows[0];
}

/** The account's contact with this address (case-insensitively), if automation knows one. */
export async function findContactByEmail(client: Queryable, accountId: number, email: string): Promise<ProjectedContact | undefined> {
  const { rows } = await client.query<ProjectedContact>(
    `SELECT ${PROJECTED_COLUMNS} FROM contacts WHERE account_id = $1 AND lower(email) = lower($2) AND NOT deleted LIMIT 1`,
    [accountId, email],
  );
  return rows[0];
}
