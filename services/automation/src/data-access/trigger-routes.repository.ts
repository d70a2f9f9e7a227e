import { lockForTransaction, type Pool, type PoolClient } from '@mailer/shared';

type Queryable = Pool | PoolClient;

/** An (account, event name) an enabled workflow triggers on. */
export interface LiveTrigger {
  accountId: number;
  event: string;
}

/**
 * The advisory lock every change of automation.contact-events' trigger bindings is made under (any
 * instance, any process). A fixed key of this service's own database; node-pg-migrate's lock is
 * the only other one here.
 */
const TRIGGER_ROUTING_LOCK = 2_206_210_031;

/**
 * Waits for the trigger-routing lock, held until the transaction ends. Taken before reading the
 * workflows, so a reconcile that waited reads every change committed before it got the lock.
 */
export async function lockTriggerRouting(client: PoolClient): Promise<void> {
  await lockForTransaction(client, TRIGGER_ROUTING_LOCK);
}

/** Every (account, event) an enabled workflow triggers on; the empty name is the system's own (nothing publishes it). */
export async function liveTriggers(db: Queryable): Promise<LiveTrigger[]> {
  const { rows } = await db.query<{ account_id: number; trigger_event: string }>(
    "SELECT DISTINCT account_id, trigger_event FROM workflows WHERE enabled AND trigger_event <> ''",
  );
  return rows.map((row) => ({ accountId: row.account_id, event: row.trigger_event }));
}

/** The routing keys automation bound and has not unbound since. */
export async function recordedRoutes(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ routing_key: string }>('SELECT routing_key FROM trigger_routes');
  return rows.map((row) => row.routing_key);
}

export async function recordRoutes(db: Queryable, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.query('INSERT INTO trigger_routes (routing_key) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING', [keys]);
}

export async function forgetRoutes(db: Queryable, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.query('DELETE FROM trigger_routes WHERE routing_key = ANY($1::text[])', [keys]);
}
