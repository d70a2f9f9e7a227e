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

/**
 * How many contacts the rule selects and the newest `sampleSize` of them, from one evaluation:
 * the members' ids once (materialised), counted and the last few read back.
 */
export async function previewSegment(db: Queryable, accountId: number, rule: SegmentGroup, sampleSize: number): Promise<{ count: number; sample: SegmentSampleRow[] }> {
  const { where, values } = segmentSql(accountId, rule);
  const { rows } = await db.query<{ count: number; sample: SegmentSampleRow[] }>(
    `WITH members AS MATERIALIZED (SELECT c.id FROM contacts c WHERE ${where})
     SELECT (SELECT count(*)::int FROM members) AS count,
            (SELECT coalesce(json_agg(json_build_object('id', s.id, 'email', s.email, 'first_name', s.first_name, 'last_name', s.last_name) ORDER BY s.id DESC), '[]'::json)
               FROM (SELECT c.id, c.email, c.first_name, c.last_name FROM contacts c
                      WHERE c.id IN (SELECT id FROM members ORDER BY id DESC LIMIT ${Math.trunc(sampleSize)})) s) AS sample`,
    values,
  );
  return rows[0]!;
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
