import { Router } from 'express';
import { bodyObject, identityOf, jsonBody, notFound, validationFailed, type Pool } from '@mailer/shared';
import type { SegmentRow } from '../../data-access/segments.repository';
import { parsePreviewInput, parseSegmentInput } from '../../domain/segments/segment-input';
import {
  countSegmentMembers,
  createSegment,
  getSegment,
  MAX_MEMBERS_PAGE,
  previewRule,
  removeSegment,
  replaceSegment,
  segmentMembersPage,
} from '../../domain/segments/segments';
import { listSegments } from '../../data-access/segments.repository';

const ID = /^[1-9]\d{0,14}$/;
const AFTER = /^(0|[1-9]\d{0,14})$/;

const segmentResource = (row: SegmentRow) => ({
  id: row.id,
  name: row.name,
  rule: row.rule,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

function segmentId(raw: unknown): number {
  if (typeof raw !== 'string' || !ID.test(raw)) throw notFound('segment');
  return Number(raw);
}

/** `?after=&limit=` of the members' pages: after defaults to 0 (the start), limit to and at most MAX_MEMBERS_PAGE. */
function pageQuery(query: Record<string, unknown>): { after: number; limit: number } {
  const { after = '0', limit = String(MAX_MEMBERS_PAGE) } = query;
  const problems = [
    ...(typeof after === 'string' && AFTER.test(after) ? [] : ['after must be a contact id']),
    ...(typeof limit === 'string' && ID.test(limit) && Number(limit) <= MAX_MEMBERS_PAGE ? [] : [`limit must be an integer from 1 to ${MAX_MEMBERS_PAGE}`]),
  ];
  if (problems.length > 0) throw validationFailed(problems);
  return { after: Number(after), limit: Number(limit) };
}

/**
 * Segments for the account app and the senders (signed identity): saved rules, a rule's preview
 * while it is edited, and a segment's members in id pages for a campaign's audience.
 */
export function segmentsRoutes(deps: { pool: Pool }): Router {
  const router = Router();
  const { pool } = deps;

  router.get('/', async (_req, res) => {
    res.json({ data: (await listSegments(pool, identityOf(res).accountId)).map(segmentResource) });
  });

  router.post('/', jsonBody('256kb'), async (req, res) => {
    const input = parseSegmentInput(bodyObject(req.body));
    res.status(201).json({ data: segmentResource(await createSegment(pool, identityOf(res).accountId, input)) });
  });

  // Before /:id, so "preview" is not taken for an id.
  router.post('/preview', jsonBody('256kb'), async (req, res) => {
    const rule = parsePreviewInput(bodyObject(req.body));
    res.json({ data: await previewRule(pool, identityOf(res).accountId, rule) });
  });

  router.get('/:id', async (req, res) => {
    res.json({ data: segmentResource(await getSegment(pool, identityOf(res).accountId, segmentId(req.params.id))) });
  });

  router.put('/:id', jsonBody('256kb'), async (req, res) => {
    const id = segmentId(req.params.id);
    const input = parseSegmentInput(bodyObject(req.body));
    res.json({ data: segmentResource(await replaceSegment(pool, identityOf(res).accountId, id, input)) });
  });

  router.delete('/:id', async (req, res) => {
    await removeSegment(pool, identityOf(res).accountId, segmentId(req.params.id));
    res.status(204).end();
  });

  router.get('/:id/count', async (req, res) => {
    res.json({ data: { count: await countSegmentMembers(pool, identityOf(res).accountId, segmentId(req.params.id)) } });
  });

  router.get('/:id/members', async (req, res) => {
    const id = segmentId(req.params.id);
    const { after, limit } = pageQuery(req.query);
    res.json({ data: await segmentMembersPage(pool, identityOf(res).accountId, id, after, limit) });
  });

  return router;
}
