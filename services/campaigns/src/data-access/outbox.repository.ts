import { randomUUID } from 'node:crypto';
import type { MessageContract, MessageOf } from '@mailer/shared';
import type { Queryable } from './queryable';

export interface OutboxMessage {
  id: number;
  message_id: string;
  type: string;
  payload: unknown;
}

/** Stores a message in the same transaction as the change that causes it; the relay publishes it. */
export async function addToOutbox<C extends MessageContract>(db: Queryable, contract: C, payload: MessageOf<C>): Promise<void> {
  await db.query('INSERT INTO outbox (message_id, type, payload) VALUES ($1, $2, $3)', [
    randomUUID(),
    contract.type,
    JSON.stringify(contract.schema.parse(payload)),
  ]);
}

/** The oldest unpublished messages, locked for this relay (another instance skips them). */
export async function lockOutboxBatch(db: Queryable, limit: number): Promise<OutboxMessage[]> {
  const { rows } = await db.query<OutboxMessage>(
    'SELECT id, message_id, type, payload FROM outbox ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED',
    [limit],
  );
  return rows;
}

export async function deleteFromOutbox(db: Queryable, ids: number[]): Promise<void> {
  await db.query('DELETE FROM outbox WHERE id = ANY($1::bigint[])', [ids]);
}
