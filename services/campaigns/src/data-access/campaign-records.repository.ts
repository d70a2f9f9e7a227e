import type { CampaignStatus } from '../domain/campaign';
import type { CampaignContentInput, CampaignRecord } from '../domain/sending/campaign-record';
import type { Queryable } from './queryable';

const RECORD_COLUMNS = `id, account_id, name, title, status, preview_text, html, text_body, from_name, from_address,
  audience_tags, audience_match, audience_segment_id, failure_reason, paused, control_version, progress_counted_at, emails_sent,
  emails_failed, emails_bounced, total_recipients, unsubscribes_count, send_at, sent_at, approved_at, started_at, created_at, updated_at`;

const CONTENT_COLUMNS = [
  'name',
  'title',
  'preview_text',
  'html',
  'text_body',
  'from_name',
  'from_address',
  'audience_tags',
  'audience_match',
  'audience_segment_id',
] as const;

/** One campaign of the account, locked for the rest of the transaction when `forUpdate`. */
export async function findCampaignRecord(db: Queryable, accountId: number, id: number, forUpdate = false): Promise<CampaignRecord | undefined> {
  const { rows } = await db.query<CampaignRecord>(
    `SELECT ${RECORD_COLUMNS} FROM campaigns WHERE account_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
    [accountId, id],
  );
  return rows[0];
}

/** Operator commands name a campaign by id alone; the account comes from the row. */
export async function findCampaignAccount(db: Queryable, id: number): Promise<number | undefined> {
  const { rows } = await db.query<{ account_id: number }>('SELECT account_id FROM campaigns WHERE id = $1', [id]);
  return rows[0]?.account_id;
}

export async function insertDraft(db: Queryable, accountId: number, content: Required<CampaignContentInput>): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO campaigns (account_id, status, subject, ${CONTENT_COLUMNS.join(', ')})
     VALUES ($1, 'draft', $3, ${CONTENT_COLUMNS.map((_, index) => `$${index + 2}`).join(', ')}) RETURNING id`,
    [accountId, ...CONTENT_COLUMNS.map((column) => content[column])],
  );
  return rows[0]!.id;
}

/** Sets the given content fields (the subject column follows `title`, which `q` searches). */
export async function updateContent(db: Queryable, id: number, content: CampaignContentInput): Promise<void> {
  const sets: string[] = [];
  const values: unknown[] = [id];
  for (const column of CONTENT_COLUMNS) {
    if (content[column] === undefined) continue;
    values.push(content[column]);
    sets.push(`${column} = $${values.length}`);
    if (column === 'title') sets.push(`subject = $${values.length}`);
  }
  if (sets.length === 0) return;
  await db.query(`UPDATE campaigns SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, values);
}

export interface LifecycleChange {
  status: CampaignStatus;
  paused?: boolean;
  failure_reason?: string | null;
  send_at?: Date | null;
  sent_at?: Date | null;
  approved_at?: Date | null;
  started_at?: Date | null;
  /** Bumps control_version (a control goes to automation with the new number). */
  bumpControl?: boolean;
  /** Sending starts over from zero counts (a fresh send). */
  resetCounts?: boolean;
}

/** Applies a status change the lifecycle allowed; returns the new control version. */
export async function updateLifecycle(db: Queryable, id: number, change: LifecycleChange): Promise<number> {
  const sets = ['status = $2', 'updated_at = now()'];
  const values: unknown[] = [id, change.status];
  const optional = ['paused', 'failure_reason', 'send_at', 'sent_at', 'approved_at', 'started_at'] as const;
  for (const column of optional) {
    if (change[column] === undefined) continue;
    values.push(change[column]);
    sets.push(`${column} = $${values.length}`);
  }
  if (change.bumpControl) sets.push('control_version = control_version + 1');
  if (change.resetCounts) sets.push('emails_sent = 0, emails_failed = 0, emails_bounced = 0, total_recipients = 0, progress_counted_at = 0');
  const { rows } = await db.query<{ control_version: number }>(
    `UPDATE campaigns SET ${sets.join(', ')} WHERE id = $1 RETURNING control_version`,
    values,
  );
  return rows[0]!.control_version;
}

/** Scheduled campaigns whose time has come, locked so that one instance starts each. */
export async function lockDueCampaigns(db: Queryable, limit: number): Promise<Array<{ id: number; account_id: number }>> {
  const { rows } = await db.query<{ id: number; account_id: number }>(
    `SELECT id, account_id FROM campaigns WHERE status = 'scheduled' AND send_at <= now()
      ORDER BY send_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
    [limit],
  );
  return rows;
}

export interface ProgressCounts {
  total_recipients: number;
  sent: number;
  failed: number;
  /** Of `failed`; absent from a count that does not say, which leaves the bounces counted before. */
  bounced?: number | undefined;
  unsubscribes: number;
  counted_at: number;
}

/** Writes automation's counts when they are newer than the ones applied; false when stale. */
export async function applyCounts(db: Queryable, accountId: number, id: number, counts: ProgressCounts): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE campaigns SET total_recipients = $3, emails_sent = $4, emails_failed = $5, unsubscribes_count = $6,
            progress_counted_at = $7, emails_bounced = COALESCE($8::int, emails_bounced), updated_at = now()
      WHERE account_id = $1 AND id = $2 AND progress_counted_at < $7`,
    [accountId, id, counts.total_recipients, counts.sent, counts.failed, counts.unsubscribes, counts.counted_at, counts.bounced ?? null],
  );
  return rowCount === 1;
}
