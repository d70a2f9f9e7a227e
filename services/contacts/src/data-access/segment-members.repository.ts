import type { SegmentGroup } from '../domain/segments/segment-rule';
import type { Queryable } from './queryable';
import { segmentSql } from './segment-sql';

export interface SegmentSampleRow {
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
}

/** How many of the account's contacts the rule selects. */
export async function countSegment(db: Queryable, accountId: number, rule: SegmentGroup): Promise<number> {
  const { where, values } = segmentSql(accountId, rule);
  const { rows } = await db.query<{ count: number }>(`SELECT count(*)::int AS count FROM contacts c WHERE ${where}`, values);
  return rows[0]!.count;
}

/** The newest few contacts the rule selects, for a preview. */
export async function sampleSegment(db: Queryable, accountId: number, rule: SegmentGroup, limit: number): Promise<SegmentSampleRow[]> {
  const { where, values } = segmentSql(accountId, rule);
  const { rows } = await db.query<SegmentSampleRow>(
    `SELECT c.id, c.email, c.first_name, c.last_name FROM contacts c WHERE ${where} ORDER BY c.id DESC LIMIT ${Math.trunc(limit)}`,
    values,
  );
  return rows;
}

/** One page of the members' ids, ascending, after `after` (keyset: stable while contacts come and go). */
export async function segmentMemberIds(db: Queryable, accountId: number, rule: SegmentGroup, after: number, limit: number): Promise<number[]> {
  const { where, values } = segmentSql(accountId, rule);
  const { rows } = await db.query<{ id: number }>(
    `SELECT c.id FROM contacts c WHERE ${where} AND c.id > $${values.length + 1}::bigint ORDER BY c.id LIMIT $${values.length + 2}::int`,
    [...values, after, limit],
  );
  return rows.map((row) => row.id);
}
