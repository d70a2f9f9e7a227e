import type { Queryable } from './queryable';

export interface EndpointRow {
  id: number;
  account_id: number;
  url: string;
  description: string;
  event_types: string[];
  enabled: boolean;
  failing_since: Date | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

// Never the secrets: those leave this table only to sign (claimDueDeliveries) or once, on creation or rotation.
const COLUMNS = `id::int AS id, account_id::int AS account_id, url, description, event_types, enabled, failing_since,
  CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END AS previous_secret_expires_at, created_at, updated_at`;

export interface NewEndpoint {
  accountId: number;
  url: string;
  description: string;
  eventTypes: string[];
  enabled: boolean;
  secret: string;
}

export async function insertEndpoint(db: Queryable, endpoint: NewEndpoint): Promise<EndpointRow> {
  const { rows } = await db.query<EndpointRow>(
    `INSERT INTO endpoints (account_id, url, description, event_types, enabled, secret)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [endpoint.accountId, endpoint.url, endpoint.description, endpoint.eventTypes, endpoint.enabled, endpoint.secret],
  );
  return rows[0]!;
}

/** One endpoint; `accountId` undefined for the operator CLI, which may address any account's. */
export async function findEndpoint(db: Queryable, accountId: number | undefined, id: number): Promise<EndpointRow | undefined> {
  const { rows } = await db.query<EndpointRow>(`SELECT ${COLUMNS} FROM endpoints WHERE id = $1 AND ($2::bigint IS NULL OR account_id = $2)`, [
    id,
    accountId ?? null,
  ]);
  return rows[0];
}

export async function listEndpoints(db: Queryable, accountId: number): Promise<EndpointRow[]> {
  const { rows } = await db.query<EndpointRow>(`SELECT ${COLUMNS} FROM endpoints WHERE account_id = $1 ORDER BY id`, [accountId]);
  return rows;
}

export interface EndpointChanges {
  url?: string | undefined;
  description?: string | undefined;
  eventTypes?: string[] | undefined;
  enabled?: boolean | undefined;
}

export async function updateEndpoint(db: Queryable, id: number, changes: EndpointChanges): Promise<EndpointRow> {
  const { rows } = await db.query<EndpointRow>(
    `UPDATE endpoints SET url = COALESCE($2, url), description = COALESCE($3, description),
            event_types = COALESCE($4, event_types), enabled = COALESCE($5, enabled), updated_at = now()
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, changes.url ?? null, changes.description ?? null, changes.eventTypes ?? null, changes.enabled ?? null],
  );
  return rows[0]!;
}

/** The new secret signs from now on; the old one keeps signing alongside it for `overlapMs`. */
export async function rotateSecret(db: Queryable, id: number, secret: string, overlapMs: number): Promise<EndpointRow> {
  const { rows } = await db.query<EndpointRow>(
    `UPDATE endpoints SET previous_secret = secret, secret = $2,
            previous_secret_expires_at = now() + $3 * interval '1 millisecond', updated_at = now()
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, secret, overlapMs],
  );
  return rows[0]!;
}

export async function deleteEndpoint(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM endpoints WHERE id = $1', [id]);
}
