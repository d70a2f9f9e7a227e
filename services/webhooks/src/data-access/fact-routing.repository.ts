import { lockForTransaction, type PoolClient } from '@mailer/shared';
import type { Queryable } from './queryable';

/**
 * The advisory lock every change of `webhooks.facts`' bindings is made under (any instance). A
 * fixed key of this service's own database; node-pg-migrate's lock is the only other one here.
 */
const FACT_ROUTING_LOCK = 2_206_210_021;

/**
 * Waits for the fact-routing lock, held until the transaction ends. Taken before reading the
 * endpoints, so a reconcile that waited reads every change committed before it got the lock.
 */
export async function lockFactRouting(client: PoolClient): Promise<void> {
  await lockForTransaction(client, FACT_ROUTING_LOCK);
}

/** The event types some enabled endpoint subscribes to (the consumer writes deliveries for those alone). */
export async function subscribedEventTypes(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ type: string }>('SELECT DISTINCT unnest(event_types) AS type FROM endpoints WHERE enabled');
  return rows.map((row) => row.type);
}
