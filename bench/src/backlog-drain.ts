import pg from 'pg';
import type { ArrivalSink } from './arrival-sink';
import type { BenchAccount } from './operator-setup';
import { databaseUrlOf } from './seed-contacts';
import { drainArrivals, drainResult, type DrainResult } from './drain-result';
import { BENCH_DOMAIN } from './start-stack';

/** Contact ids far above anything the contacts service hands out, so projection rows never collide. */
const BACKLOG_CONTACT_ID_BASE = 1_000_000_000;
const DRAIN_TIMEOUT_MS = 240_000;

/**
 * `count` sends due now, written in one transaction straight into the automation database (a
 * projected contact, a run and a pending send each, one INSERT ... SELECT per table), then the time
 * from commit until the last of their emails is in the sink.
 */
export async function measureBacklogDrain(options: {
  env: NodeJS.ProcessEnv;
  sink: ArrivalSink;
  account: BenchAccount;
  runId: string;
  count: number;
  /** Added to the contact ids, so a second drain in one run (a warm-up) writes contacts of its own. */
  contactIdOffset?: number;
}): Promise<DrainResult> {
  const { account, count, runId } = options;
  const { arrivals, tag } = drainArrivals(options.sink, 'backlog', runId);
  const client = new pg.Client({ connectionString: databaseUrlOf(options.env, 'automation') });
  await client.connect();
  let committedAt: number;
  try {
    const base = [account.accountId, BACKLOG_CONTACT_ID_BASE + (options.contactIdOffset ?? 0), count];
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO contacts (account_id, contact_id, email, first_name, subscribed, bounced, fact_at)
       SELECT $1, $2::bigint + g, 'backlog' || g || $4::text, 'Backlog' || g, true, false, now()
       FROM generate_series(1, $3::int) AS g`,
      [...base, tag],
    );
    await client.query(
      `INSERT INTO workflow_runs (account_id, contact_id, workflow_id, event_id, event_name, event_properties)
       SELECT $1, $2::bigint + g, $4, 'backlog-' || $5::text || '-' || g, 'bench_signup', jsonb_build_object('plan', 'trial')
       FROM generate_series(1, $3::int) AS g`,
      [...base, account.workflowId, runId],
    );
    await client.query(
      `INSERT INTO sends (run_id, account_id, contact_id, workflow_id, step_id, step_index, message_id, state, due_at)
       SELECT r.id, r.account_id, r.contact_id, r.workflow_id, 'welcome', 0,
              '<backlog.' || r.id || '.' || $5::text || '@${BENCH_DOMAIN}>', 'pending', now()
       FROM generate_series(1, $3::int) AS g
       JOIN workflow_runs r ON r.account_id = $1 AND r.workflow_id = $4 AND r.contact_id = $2::bigint + g`,
      [...base, account.workflowId, runId],
    );
    await client.query('COMMIT');
    committedAt = Date.now();
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
  return drainResult('backlog drain', arrivals, count, committedAt, DRAIN_TIMEOUT_MS);
}
