import type { ContactSnapshot, Pool, PoolClient, SuppressionReason } from '@mailer/shared';

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

/** Applies a snapshot unless a newer fact was already applied (facts may arrive out of order). */
export async function applyContactSnapshot(client: Queryable, accountId: number, contact: ContactSnapshot, factAt: string): Promise<void> {
  await client.query({
    name: 'automation.apply-contact-snapshot',
    text: `INSERT INTO contacts (account_id, contact_id, email, first_name, last_name, subscribed, bounced, deleted, tags, custom_properties, fact_at, suppression)
     VALUES ($1, $2, $3, $4, $5, $6, $7, false, $8, $9, $10, $11)
     ON CONFLICT (account_id, contact_id) DO UPDATE
       SET email = EXCLUDED.email, first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name,
           subscribed = EXCLUDED.subscribed, bounced = EXCLUDED.bounced, deleted = false, tags = EXCLUDED.tags,
           suppression = EXCLUDED.suppression,
           custom_properties = EXCLUDED.custom_properties, fact_at = EXCLUDED.fact_at, updated_at = now()
       WHERE contacts.fact_at <= EXCLUDED.fact_at`,
    values: [
      accountId,
      contact.id,
      contact.email,
      contact.first_name,
      contact.last_name,
      contact.subscribed,
      contact.bounced,
      JSON.stringify(contact.tags),
      JSON.stringify(contact.custom_properties),
      factAt,
      contact.suppression ?? null,
    ],
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
