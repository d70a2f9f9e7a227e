import pg from 'pg';
import { databaseUrlOf } from './seed-contacts';

/** What the services stored about one sign-up's way to its email, in epoch ms; absent when not (yet) written. */
export interface StoredStageTimes {
  /** contacts: the contact row's created_at (every bench sign-up is a new address). */
  upserted?: number;
  /** automation: the workflow run's created_at, written by the enrolment statement. */
  enrolled?: number;
  /** automation: the send's claimed_at (the enrolment statement itself, or the scheduler's claim). */
  claimed?: number;
  /** automation: the send's sent_at, written with the outcome once the SMTP server answered 250. */
  recorded?: number;
}

// Postgres stamps now() at the start of each statement's transaction; every statement read here runs
// on its own (no BEGIN), so a stamp is when that statement started, a little before it committed.
const EPOCH_MS = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;

async function query<R extends pg.QueryResultRow>(url: string, text: string, values: unknown[]): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * The stored times of every sign-up (the bench welcome workflow has one step: one send per run) whose address ends in `suffix`, by lower-case address, read
 * after the run from the contacts and automation databases (nothing is read while it runs).
 */
export async function readStoredStageTimes(
  env: NodeJS.ProcessEnv,
  accountId: number,
  suffix: string,
): Promise<Map<string, StoredStageTimes>> {
  const wanted = suffix.toLowerCase();
  const [contacts, automation] = await Promise.all([
    query<{ email: string; upserted: number }>(
      databaseUrlOf(env, 'contacts'),
      `SELECT lower(email) AS email, ${EPOCH_MS('created_at')} AS upserted
         FROM contacts WHERE account_id = $1 AND right(lower(email), length($2)) = $2`,
      [accountId, wanted],
    ),
    query<{ email: string; enrolled: number; claimed: number | null; recorded: number | null }>(
      databaseUrlOf(env, 'automation'),
      `SELECT lower(c.email) AS email, ${EPOCH_MS('r.created_at')} AS enrolled,
              ${EPOCH_MS('s.claimed_at')} AS claimed, ${EPOCH_MS('s.sent_at')} AS recorded
         FROM contacts c
         JOIN workflow_runs r ON r.account_id = c.account_id AND r.contact_id = c.contact_id
         JOIN sends s ON s.run_id = r.id
        WHERE c.account_id = $1 AND right(lower(c.email), length($2)) = $2`,
      [accountId, wanted],
    ),
  ]);
  const times = new Map<string, StoredStageTimes>();
  for (const row of contacts) times.set(row.email, { upserted: row.upserted });
  for (const row of automation) {
    const entry = times.get(row.email) ?? {};
    entry.enrolled = row.enrolled;
    if (row.claimed !== null) entry.claimed = row.claimed;
    if (row.recorded !== null) entry.recorded = row.recorded;
    times.set(row.email, entry);
  }
  return times;
}
