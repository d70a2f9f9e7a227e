import { IDENTITY_HEADER, type Pool } from '@mailer/shared';
import { signedIdentityFor } from '@mailer/testing';
import { uniqueEmail } from './contacts-test-service';

export interface ContactFields {
  email?: string;
  first_name?: string | null;
  last_name?: string | null;
  source?: string | null;
  subscribed?: boolean;
  custom_properties?: Record<string, unknown>;
  last_engaged_at?: Date | null;
  tags?: string[];
}

/** A contact written straight to the table (segments read rows, however they were made); its id. */
export async function insertContact(pool: Pool, accountId: number, fields: ContactFields = {}): Promise<number> {
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO contacts (account_id, email, first_name, last_name, source, subscribed, custom_properties, last_engaged_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [
      accountId,
      fields.email ?? uniqueEmail(),
      fields.first_name ?? null,
      fields.last_name ?? null,
      fields.source ?? null,
      fields.subscribed ?? true,
      JSON.stringify(fields.custom_properties ?? {}),
      fields.last_engaged_at ?? null,
    ],
  );
  const id = rows[0]!.id;
  for (const tag of fields.tags ?? []) {
    await pool.query(
      `WITH t AS (INSERT INTO tags (account_id, name) VALUES ($1, $2) ON CONFLICT (account_id, lower(name)) DO UPDATE SET name = tags.name RETURNING id)
       INSERT INTO contact_tags (contact_id, tag_id) SELECT $3, id FROM t`,
      [accountId, tag, id],
    );
  }
  return id;
}

/** `count` events named `event` of the contact, `daysAgo` days before today (UTC). */
export async function insertEventDay(pool: Pool, accountId: number, contactId: number, event: string, daysAgo: number, count: number) {
  await pool.query(
    `INSERT INTO contact_event_days (account_id, event, day, contact_id, count)
     VALUES ($1, $2, (now() AT TIME ZONE 'UTC')::date - $3::int, $4, $5)`,
    [accountId, event, daysAgo, contactId, count],
  );
}

/** The reader opened (and maybe clicked) the campaign's email (null: a workflow email). */
export async function insertEngagement(pool: Pool, accountId: number, contactId: number, campaignId: number | null, clicked: boolean) {
  await pool.query(
    `INSERT INTO contact_engagements (account_id, contact_id, campaign_id, first_opened_at, first_clicked_at, last_at)
     VALUES ($1, $2, $3, now(), CASE WHEN $4::boolean THEN now() END, now())`,
    [accountId, contactId, campaignId, clicked],
  );
}

export interface SegmentAnswer<T> {
  status: number;
  body: T;
}

/** Calls `/internal/v1/segments…` as the account app does: signed identity of the account. */
export function segmentsApi(baseUrl: string) {
  return async function call<T = { data: never; errors?: string[]; error?: string; details?: unknown }>(
    accountId: number,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<SegmentAnswer<T>> {
    const url = `${baseUrl}/internal/v1/segments${path}`;
    const sent = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { [IDENTITY_HEADER]: signedIdentityFor(accountId, { method, url, body: sent }) };
    if (sent !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, { method, headers, body: sent });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  };
}
