import type { Pool } from '@mailer/shared';
import type { Queryable } from './queryable';

/** A webhook event waiting to be queued for the endpoints that subscribed to it. */
export interface QueuedEvent {
  accountId: number;
  messageId: string;
  type: string;
  body: string;
}

/**
 * Writes one delivery per subscribed, enabled endpoint of each event's account, for many events in
 * one statement; an event seen again (a redelivered fact) writes nothing new. Returns the endpoints
 * that got a new delivery.
 */
export async function insertDeliveries(db: Queryable, events: QueuedEvent[]): Promise<number[]> {
  if (events.length === 0) return [];
  const { rows } = await db.query<{ endpoint_id: number }>({
    name: 'webhooks.insert-deliveries',
    text: `INSERT INTO deliveries (endpoint_id, account_id, message_id, event_type, payload)
           SELECT e.id, i.account_id, i.message_id, i.event_type, i.payload
             FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS i (account_id, message_id, event_type, payload, n)
             JOIN endpoints e ON e.account_id = i.account_id AND e.enabled AND i.event_type = ANY (e.event_types)
            -- Ids in the order the events happened: an endpoint gets them in that order.
            ORDER BY i.n, e.id
           ON CONFLICT (endpoint_id, message_id) DO NOTHING
           RETURNING endpoint_id::int AS endpoint_id`,
    values: [events.map((event) => event.accountId), events.map((event) => event.messageId), events.map((event) => event.type), events.map((event) => event.body)],
  });
  return [...new Set(rows.map((row) => row.endpoint_id))];
}

/** A claimed delivery with what it takes to sign and send it. */
export interface ClaimedDelivery {
  id: number;
  endpoint_id: number;
  account_id: number;
  message_id: string;
  event_type: string;
  payload: string;
  attempts: number;
  url: string;
  secret: string;
  /** Still signing during a rotation's overlap; null otherwise. */
  previous_secret: string | null;
}

/**
 * Claims the oldest due delivery of up to `limit` endpoints that have none in flight: each endpoint
 * gets at most one attempt at a time, so a slow or dead endpoint holds one worker slot and never
 * the others'. The endpoint rows are locked with SKIP LOCKED while claiming, so instances side by
 * side never both pick the same endpoint; a lapsed lease (crashed worker) makes its row due again.
 */
export async function claimDueDeliveries(pool: Pool, instance: string, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const { rows } = await pool.query<ClaimedDelivery>({
    name: 'webhooks.claim-due-deliveries',
    text: `WITH ready AS (
             SELECT e.id FROM endpoints e
              WHERE e.enabled
                AND EXISTS (SELECT 1 FROM deliveries d WHERE d.endpoint_id = e.id AND d.state IN ('pending', 'delivering')
                               AND ((d.state = 'pending' AND d.next_attempt_at <= now()) OR (d.state = 'delivering' AND d.lease_until < now())))
                AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.endpoint_id = e.id AND d.state = 'delivering' AND d.lease_until >= now())
              LIMIT $3
              FOR UPDATE OF e SKIP LOCKED
           ), picked AS (
             SELECT (SELECT d.id FROM deliveries d
                      WHERE d.endpoint_id = ready.id AND d.state IN ('pending', 'delivering')
                        AND ((d.state = 'pending' AND d.next_attempt_at <= now()) OR (d.state = 'delivering' AND d.lease_until < now()))
                      ORDER BY d.next_attempt_at, d.id LIMIT 1) AS id
               FROM ready
           )
           UPDATE deliveries d
              SET state = 'delivering', attempts = d.attempts + 1, claimed_by = $1,
                  lease_until = now() + $2 * interval '1 millisecond', updated_at = now()
             FROM picked, endpoints e
            WHERE d.id = picked.id AND e.id = d.endpoint_id
        RETURNING d.id::int AS id, d.endpoint_id::int AS endpoint_id, d.account_id::int AS account_id, d.message_id, d.event_type,
                  d.payload, d.attempts, e.url, e.secret,
                  CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END AS previous_secret`,
    values: [instance, leaseMs, limit],
  });
  return rows;
}

export interface AttemptRecord {
  status: number | null;
  latencyMs: number;
  excerpt: string;
  error: string | null;
  succeeded: boolean;
  /** When to try again; null: no more attempts (succeeded, or the schedule is spent). */
  retryInMs: number | null;
}

/**
 * Logs the attempt and moves the delivery on, only while this attempt still holds the claim
 * (`attempts` is the fencing token). A spent schedule marks the endpoint failing; a success
 * clears that. False when the claim was lost (the lease lapsed and another worker took it).
 */
export async function recordAttempt(pool: Pool, delivery: ClaimedDelivery, attempt: AttemptRecord): Promise<boolean> {
  const state = attempt.succeeded ? 'succeeded' : attempt.retryInMs === null ? 'failed' : 'pending';
  const { rows } = await pool.query<{ recorded: boolean }>({
    name: 'webhooks.record-attempt',
    text: `WITH moved AS (
             UPDATE deliveries SET state = $3, next_attempt_at = now() + COALESCE($4, 0) * interval '1 millisecond',
                    claimed_by = NULL, lease_until = NULL, updated_at = now()
              WHERE id = $1 AND attempts = $2 AND state = 'delivering'
          RETURNING id, endpoint_id
           ), logged AS (
             INSERT INTO delivery_attempts (delivery_id, attempt, status_code, latency_ms, response_excerpt, error, succeeded)
             SELECT id, $2, $5, $6, $7, $8, $9 FROM moved
           ), endpoint AS (
             UPDATE endpoints SET failing_since = CASE WHEN $3 = 'succeeded' THEN NULL ELSE COALESCE(failing_since, now()) END
              WHERE id = (SELECT endpoint_id FROM moved) AND $3 IN ('succeeded', 'failed')
           )
           SELECT EXISTS (SELECT 1 FROM moved) AS recorded`,
    values: [delivery.id, delivery.attempts, state, attempt.retryInMs, attempt.status, attempt.latencyMs, attempt.excerpt, attempt.error, attempt.succeeded],
  });
  return rows[0]?.recorded ?? false;
}

export interface DeliveryLogEntry {
  id: number;
  message_id: string;
  event_type: string;
  state: string;
  attempts: number;
  next_attempt_at: Date | null;
  created_at: Date;
  payload: string;
  attempt_log: Array<{ attempt: number; attempted_at: string; status_code: number | null; latency_ms: number; response_excerpt: string; error: string | null; succeeded: boolean }>;
}

/** An endpoint's deliveries, newest first, each with every attempt. */
export async function listDeliveries(db: Queryable, endpointId: number, limit: number, beforeId: number | undefined): Promise<DeliveryLogEntry[]> {
  const { rows } = await db.query<DeliveryLogEntry>(
    `SELECT d.id::int AS id, d.message_id, d.event_type, d.state, d.attempts, d.payload, d.created_at,
            CASE WHEN d.state = 'pending' THEN d.next_attempt_at END AS next_attempt_at,
            COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'attempted_at', a.attempted_at, 'status_code', a.status_code,
                                                        'latency_ms', a.latency_ms, 'response_excerpt', a.response_excerpt,
                                                        'error', a.error, 'succeeded', a.succeeded) ORDER BY a.id)
                        FROM delivery_attempts a WHERE a.delivery_id = d.id), '[]') AS attempt_log
       FROM deliveries d
      WHERE d.endpoint_id = $1 AND ($3::bigint IS NULL OR d.id < $3)
      ORDER BY d.id DESC LIMIT $2`,
    [endpointId, limit, beforeId ?? null],
  );
  return rows;
}

/**
 * Sends a delivery again from the start of the schedule, with the same webhook-id (a receiver that
 * already has it can tell). One in flight is left alone; false when there is no such delivery.
 */
export async function resendDelivery(db: Queryable, endpointId: number, deliveryId: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE deliveries SET state = CASE WHEN state = 'delivering' THEN state ELSE 'pending' END,
            next_attempt_at = now(), attempts = CASE WHEN state = 'delivering' THEN attempts ELSE 0 END, updated_at = now()
      WHERE id = $1 AND endpoint_id = $2`,
    [deliveryId, endpointId],
  );
  return (rowCount ?? 0) > 0;
}
