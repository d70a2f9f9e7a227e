import { notFound, type Pool } from '@mailer/shared';
import { countSegment, previewSegment, segmentMemberIds } from '../../data-access/segment-members.repository';
import {
  deleteSegment,
  findSegment,
  insertSegment,
  SegmentNameTaken,
  updateSegment,
  type SegmentRow,
} from '../../data-access/segments.repository';
import { segmentNameTaken } from './segment.errors';
import type { SegmentGroup } from './segment-rule';

/** Contacts shown with a preview's count. */
export const PREVIEW_SAMPLE_SIZE = 10;
export const MAX_MEMBERS_PAGE = 5000;

const nameTaken = (error: unknown): never => {
  throw error instanceof SegmentNameTaken ? segmentNameTaken() : error;
};

export const createSegment = (pool: Pool, accountId: number, input: { name: string; rule: SegmentGroup }) =>
  insertSegment(pool, accountId, input.name, input.rule).catch(nameTaken);

export async function getSegment(pool: Pool, accountId: number, id: number): Promise<SegmentRow> {
  return (await findSegment(pool, accountId, id)) ?? Promise.reject(notFound('segment'));
}

export async function replaceSegment(pool: Pool, accountId: number, id: number, input: { name: string; rule: SegmentGroup }): Promise<SegmentRow> {
  return (await updateSegment(pool, accountId, id, input.name, input.rule).catch(nameTaken)) ?? Promise.reject(notFound('segment'));
}

export async function removeSegment(pool: Pool, accountId: number, id: number): Promise<void> {
  if (!(await deleteSegment(pool, accountId, id))) throw notFound('segment');
}

/** How many contacts a rule selects now, and the newest few of them. */
export const previewRule = (pool: Pool, accountId: number, rule: SegmentGroup) => previewSegment(pool, accountId, rule, PREVIEW_SAMPLE_SIZE);

export async function countSegmentMembers(pool: Pool, accountId: number, id: number): Promise<number> {
  return countSegment(pool, accountId, (await getSegment(pool, accountId, id)).rule);
}

/**
 * One page of a segment's members, ascending by contact id: the caller passes `next_after` back
 * until it is null. Evaluated per page, so a contact that joins or leaves meanwhile is seen by the
 * pages still to come, never twice.
 */
export async function segmentMembersPage(pool: Pool, accountId: number, id: number, after: number, limit: number) {
  const { rule } = await getSegment(pool, accountId, id);
  const ids = await segmentMemberIds(pool, accountId, rule, after, limit);
  return { contact_ids: ids, next_after: ids.length === limit ? ids[ids.length - 1]! : null };
}
