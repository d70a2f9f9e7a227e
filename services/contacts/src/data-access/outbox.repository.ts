import { currentTraceparent, idArrayLiteral, lastStatementRows, type MessageContract, type MessageOf, type PoolClient } from '@mailer/shared';
import type { Queryable } from './queryable';

export interface OutboxRow {
  id: number;
  message_type: string;
  payload: unknown;
  /** The traceparent of the writing transaction, or null when it ran untraced. */
  trace_context: string | null;
}

/**
 * SQL for a timestamptz as `Date.prototype.toISOString` writes the same value read by pg (UTC,
 * milliseconds truncated): a fact a statement completes reads like one written from JS.
 */
export const ISO_MILLIS_UTC = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Called inside the transaction that makes the change, so the fact and the change commit together. */
export async function enqueueMessage<C extends MessageContract>(
  db: Queryable,
  contract: C,
  payload: MessageOf<C>,
): Promise<number> {
  const checked: unknown = contract.schema.parse(payload);
  const { rows } = await db.query<{ id: number }>({
    name: 'contacts.enqueue-message',
    text: 'INSERT INTO outbox (message_type, payload, trace_context) VALUES ($1, $2, $3) RETURNING id',
    values: [contract.type, JSON.stringify(checked), currentTraceparent()],
  });
  return rows[0]!.id;
}

/**
 * Begins the relay's transaction and locks the oldest unpublished rows for it (other relays skip
 * them rather than wait), in one round trip.
 */
export async function beginAndClaimPending(client: PoolClient, limit: number): Promise<OutboxRow[]> {
  if (!Number.isSafeInteger(limit)) throw new Error(`limit ${limit} is not an integer`);
  return lastStatementRows<OutboxRow>(
    client,
    `BEGIN; SELECT id, message_type, payload, trace_context FROM outbox WHERE published_at IS NULL ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
  );
}

/** Marks the published rows, counts an attempt on the others, and commits, in one round trip. */
export async function recordPassAndCommit(client: PoolClient, published: readonly number[], failed: readonly number[]): Promise<void> {
  const statements = [
    published.length > 0 && `UPDATE outbox SET published_at = now(), attempts = attempts + 1 WHERE id = ANY(${idArrayLiteral(published)})`,
    failed.length > 0 && `UPDATE outbox SET attempts = attempts + 1 WHERE id = ANY(${idArrayLiteral(failed)})`,
    'COMMIT',
  ].filter((statement): statement is string => typeof statement === 'string');
  await client.query(statements.join('; '));
}

/** Published rows are kept a while for inspection, then dropped so the table stays small. */
export async function prunePublished(db: Queryable, olderThanHours: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM outbox WHERE published_at IS NOT NULL AND published_at < now() - make_interval(hours => $1)`,
    [olderThanHours],
  );
  return rowCount ?? 0;
}

/** Seconds since the oldest unpublished row was written; 0 when nothing is pending (metrics). */
export async function oldestPendingAgeSeconds(db: Queryable): Promise<number> {
  // The pending index is on id, and ids grow with time: the smallest pending id is the oldest row.
  const { rows } = await db.query<{ age: number | null }>(
    `SELECT EXTRACT(EPOCH FROM now() - created_at)::float8 AS age FROM outbox WHERE published_at IS NULL ORDER BY id LIMIT 1`,
  );
  return Math.max(0, rows[0]?.age ?? 0);
}
