import type { SegmentGroup } from '../domain/segments/segment-rule';
import type { Queryable } from './queryable';

export interface SegmentRow {
  id: number;
  name: string;
  rule: SegmentGroup;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, name, rule, created_at, updated_at';
const UNIQUE_VIOLATION = '23505';

/** A name taken by another segment of the account (the unique index decides, whatever the case). */
export class SegmentNameTaken extends Error {}

const nameTakenOr = (error: unknown): never => {
  if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new SegmentNameTaken();
  throw error;
};

/** The account's segments by name. */
export async function listSegments(db: Queryable, accountId: number): Promise<SegmentRow[]> {
  const { rows } = await db.query<SegmentRow>(
    `SELECT ${COLUMNS} FROM segments WHERE account_id = $1 ORDER BY lower(name), id`,
    [accountId],
  );
  return rows;
}

export async function findSegment(db: Queryable, accountId: number, id: number): Promise<SegmentRow | undefined> {
  const { rows } = await db.query<SegmentRow>(`SELECT ${COLUMNS} FROM segments WHERE account_id = $1 AND id = $2`, [accountId, id]);
  return rows[0];
}

export async function insertSegment(db: Queryable, accountId: number, name: string, rule: SegmentGroup): Promise<SegmentRow> {
  const { rows } = await db
    .query<SegmentRow>(`INSERT INTO segments (account_id, name, rule) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`, [accountId, name, JSON.stringify(rule)])
    .catch(nameTakenOr);
  return rows[0]!;
}

export async function updateSegment(db: Queryable, accountId: number, id: number, name: string, rule: SegmentGroup): Promise<SegmentRow | undefined> {
  const { rows } = await db
    .query<SegmentRow>(
      `UPDATE segments SET name = $3, rule = $4, updated_at = now() WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [accountId, id, name, JSON.stringify(rule)],
    )
    .catch(nameTakenOr);
  return rows[0];
}

/** True when the segment existed. */
export async function deleteSegment(db: Queryable, accountId: number, id: number): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM segments WHERE account_id = $1 AND id = $2', [accountId, id]);
  return rowCount === 1;
}
