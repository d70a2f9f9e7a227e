import { currentTraceparent, type MessageContract, type MessageOf } from '@mailer/shared';
import type { Queryable } from './queryable';

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

/** Seconds since the oldest unpublished row was written; 0 when nothing is pending (metrics). */
export async function oldestPendingAgeSeconds(db: Queryable): Promise<number> {
  // The pending index is on id, and ids grow with time: the smallest pending id is the oldest row.
  const { rows } = await db.query<{ age: number | null }>(
    `SELECT EXTRACT(EPOCH FROM now() - created_at)::float8 AS age FROM outbox WHERE published_at IS NULL ORDER BY id LIMIT 1`,
  );
  return Math.max(0, rows[0]?.age ?? 0);
}
