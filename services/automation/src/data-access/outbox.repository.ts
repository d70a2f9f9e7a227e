import { randomUUID } from 'node:crypto';
import { currentTraceparent, type MessageContract, type MessageOf, type Pool, type PoolClient } from '@mailer/shared';

type Queryable = Pool | PoolClient;

/** A fact validated against its contract, ready to be written with the change that causes it. */
export interface OutboxFact {
  type: string;
  payload: unknown;
}

export function outboxFact<C extends MessageContract>(contract: C, payload: MessageOf<C>): OutboxFact {
  return { type: contract.type, payload: contract.schema.parse(payload) };
}

/** Stores a fact in the same transaction as the change that causes it; the relay publishes it. */
export async function addToOutbox<C extends MessageContract>(client: Queryable, contract: C, payload: MessageOf<C>): Promise<void> {
  await client.query('INSERT INTO outbox (message_id, type, payload, trace_context) VALUES ($1, $2, $3, $4)', [
    randomUUID(),
    contract.type,
    JSON.stringify(contract.schema.parse(payload)),
    currentTraceparent(),
  ]);
}

/** Seconds since the oldest unpublished row was written; 0 when the outbox is empty (metrics). */
export async function oldestPendingAgeSeconds(client: Queryable): Promise<number> {
  // Published rows are deleted, so every row is pending; ids grow with time.
  const { rows } = await client.query<{ age: number | null }>(
    'SELECT EXTRACT(EPOCH FROM now() - created_at)::float8 AS age FROM outbox ORDER BY id LIMIT 1',
  );
  return Math.max(0, rows[0]?.age ?? 0);
}
