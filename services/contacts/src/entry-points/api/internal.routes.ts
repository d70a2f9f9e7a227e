import { Router } from 'express';
import { z } from 'zod';
import { bodyObject, identityOf, jsonBody, notFound, validationFailed, zodMessages } from '@mailer/shared';
import { countContactFigures, listContactsBefore, propertyKeysOf } from '../../data-access/contact-list.repository';
import { tagsOf } from '../../data-access/tags.repository';
import { withTags } from '../../domain/contact';
import type { ContactUseCaseDeps } from '../../domain/create-contact';
import { importContactRows } from '../../domain/import-contact-rows';
import { removeContactTag } from '../../domain/remove-contact-tag';
import { newContactSchema } from './contact.schemas';
import { contactResource } from './contact-response';
import { parseListQuery } from './list-query';

/** Rows in one import batch: small enough for one answer, large enough that 100k rows are 200 calls. */
export const MAX_IMPORT_BATCH = 500;
const MAX_EXPORT_SLICE = 1000;
/** Columns for custom properties in an export (the distinct names across the filtered contacts). */
const MAX_PROPERTY_COLUMNS = 1000;
const ID = /^[1-9]\d{0,14}$/;

const importBody = z.object({
  rows: z.array(z.unknown()).min(1).max(MAX_IMPORT_BATCH, `rows must hold at most ${MAX_IMPORT_BATCH} entries`),
  dry_run: z.boolean().optional(),
});

const exportQuery = z.object({
  before: z.string().regex(ID, 'before must be a positive integer').optional(),
  limit: z.string().regex(ID, 'limit must be a positive integer').optional(),
});

/**
 * What the account app needs beyond the public interface (signed identity, mounted under
 * /internal/v1, which the gateway never routes): a CSV import's batches with per-row outcomes,
 * removing a tag, an export's keyset slices, and the dashboard's counts. Every rule (address,
 * domain, limits, consent) is the API's own: these routes call the same use cases.
 */
export function internalContactsRoutes(deps: ContactUseCaseDeps): Router {
  const router = Router();

  router.post('/contacts/import', jsonBody('4mb'), async (req, res) => {
    const parsed = importBody.safeParse(bodyObject(req.body));
    if (!parsed.success) throw validationFailed(zodMessages(parsed.error));
    const rows = parsed.data.rows.map((row) => {
      const fields = newContactSchema.safeParse(row);
      return fields.success ? fields.data : { errors: zodMessages(fields.error) };
    });
    const outcomes = await importContactRows(deps, identityOf(res).accountId, rows, parsed.data.dry_run ?? false);
    res.json({ data: outcomes });
  });

  router.delete('/contacts/:id/tags/:tag', async (req, res) => {
    if (!ID.test(req.params.id)) throw notFound('contact');
    const contact = await removeContactTag(deps, identityOf(res).accountId, Number(req.params.id), req.params.tag);
    res.json({ data: contactResource(contact) });
  });

  router.get('/contacts/export', async (req, res) => {
    const { page: _page, perPage: _perPage, ...filter } = parseListQuery(Object.fromEntries(Object.entries(req.query).filter(([key]) => key !== 'before' && key !== 'limit')));
    const slice = exportQuery.safeParse({ before: req.query.before, limit: req.query.limit });
    if (!slice.success) throw validationFailed(zodMessages(slice.error));
    const limit = Math.min(Number(slice.data.limit ?? MAX_EXPORT_SLICE), MAX_EXPORT_SLICE);
    const scoped = { accountId: identityOf(res).accountId, ...filter };
    const first = slice.data.before === undefined;
    const [rows, propertyKeys] = await Promise.all([
      listContactsBefore(deps.pool, scoped, first ? undefined : Number(slice.data.before), limit),
      // The first slice also names every property column the export will have.
      first ? propertyKeysOf(deps.pool, scoped, MAX_PROPERTY_COLUMNS) : Promise.resolve(undefined),
    ]);
    const tags = await tagsOf(deps.pool, rows.map((row) => row.id));
    res.json({
      data: rows.map((row) => contactResource(withTags(row, tags.get(row.id)))),
      next_before: rows.length === limit ? rows[rows.length - 1]!.id : null,
      ...(propertyKeys ? { property_keys: propertyKeys } : {}),
    });
  });

  router.get('/contacts/figures', async (req, res) => {
    const since = typeof req.query.since === 'string' ? new Date(req.query.since) : new Date(Number.NaN);
    if (Number.isNaN(since.getTime())) throw validationFailed(['since must be an ISO 8601 timestamp']);
    const counts = await countContactFigures(deps.pool, identityOf(res).accountId, since);
    res.json({ data: { total: counts.total, subscribed: counts.subscribed, created_since: counts.createdSince } });
  });

  return router;
}
