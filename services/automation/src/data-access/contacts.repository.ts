import type { ContactSnapshot, Pool, PoolClient } from '@mailer/shared';

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
  tags: string[];
  custom_properties: Record<string, unknown>;
}

type Queryable = Pool | PoolClient;

export const PROJECTED_COLUMNS = 'account_id, contact_id, email, first_name, last_name, subscribed, bounced, deleted, tags, custom_properties';

/** Applies a snapshot unless a newer fact was already applied (facts may arrive out of order). */
export async function applyContactSnapshot(client: Queryable, accountId: number, contact: ContactSnapshot, factAt: string): Promise<void> {
  await client.query({
    name: 'automation.apply-contact-snapshot',
    text: `INSERT INTO contacts (account_id, contact_id, email, first_name, last_name, subscribed, bounced, deleted, tags, custom_properties, fact_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, false, $8, $9, $10)
     ON CONFLICT (account_id, contact_id) DO UPDATE
       SET email = EXCLUDED.email, first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name,
           subscribed = EXCLUDED.subscribed, bounced = EXCLUDED.bounced, deleted = false, tags = EXCLUDED.tags,
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

/** Our own knowledge (a click, an SMTP rejection) counts as the newest fact from now on. */
export async function markContactFlag(client: Queryable, accountId: number, contactId: number, flag: 'unsubscribed' | 'bounced'): Promise<void> {
  const set = flag === 'unsubscribed' ? 'subscribed = false' : 'bounced = true';
  await client.query(
    `UPDATE contacts SET ${set}, fact_at = greatest(fact_at, now()), updated_at = now() WHERE account_id = $1 AND contact_id = $2`,
    [accountId, contactId],
  );
}

export async function findContact(client: Queryable, accountId: number, contactId: number): Promise<ProjectedContact | undefined> {
  const { rows } = await client.query<ProjectedContact>(
    `SELECT ${PROJECTED_COLUMNS} FROM contacts WHERE account_id = $1 AND contact_id = $2`,
    [accountId, contactId],
  );
  return rows[0];
}
