import { randomUUID } from 'node:crypto';
import type { MessageContract, MessageOf } from '@mailer/shared';
import type { Queryable } from './queryable';

/** Stores a message in the same transaction as the change that causes it; the relay publishes it. */
export async function addToOutbox<C extends MessageContract>(db: Queryable, contract: C, payload: MessageOf<C>): Promise<void> {
  await db.query('INSERT INTO outbox (message_id, type, payload) VALUES ($1, $2, $3)', [
    randomUUID(),
    contract.type,
    JSON.stringify(contract.schema.parse(payload)),
  ]);
}
