import { Router } from 'express';
import type { z } from 'zod';
import { bodyObject, identityOf, jsonBody, methodNotAllowed, notFound, zodMessages, type Pool } from '@mailer/shared';
import { invalidContact } from '../../domain/contact.errors';
import { createContact, type ContactUseCaseDeps } from '../../domain/create-contact';
import { removeContact } from '../../domain/delete-contact';
import { assertContactExists, getContact, listContactPage } from '../../domain/read-contacts';
import { updateContactFields } from '../../domain/update-contact';
import { contactChangesSchema, newContactSchema } from './contact.schemas';
import { contactPageResource, contactResource } from './contact-response';
import { parseListQuery } from './list-query';

/** A contact body is small: its fields' own limits (docs/api.md) fit well inside this. */
export const CONTACT_BODY_LIMIT = '64kb';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The contact's fields, flat or nested under `contact` (both forms are accepted, and may be mixed).
 * A field given both ways with different values is a 422 naming it: neither silently wins.
 */
function contactFields(body: unknown): Record<string, unknown> {
  const { contact: nested, ...flat } = bodyObject(body);
  if (nested === undefined) return flat;
  if (!isObject(nested)) throw invalidContact(['contact must be an object of contact fields']);
  const conflicts = Object.keys(nested).filter(
    (field) => field in flat && JSON.stringify(flat[field]) !== JSON.stringify(nested[field]),
  );
  if (conflicts.length > 0) {
    throw invalidContact(conflicts.map((field) => `${field} is given both flat and under contact, with different values`));
  }
  return { ...flat, ...nested };
}

/** An id that is not a positive integer names no contact: 404, like an unknown one. */
function contactId(raw: string | undefined): number {
  const id = /^\d{1,15}$/.test(raw ?? '') ? Number(raw) : 0;
  if (id < 1) throw notFound('contact');
  return id;
}

function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidContact(zodMessages(result.error));
  return result.data;
}

export function contactsRoutes(deps: ContactUseCaseDeps & { pool: Pool }): Router {
  const router = Router();
  router.use(jsonBody(CONTACT_BODY_LIMIT));

  router
    .route('/')
    .get(async (req, res) => {
      const query = parseListQuery(req.query);
      const { accountId } = identityOf(res);
      const page = await listContactPage(
        deps.pool,
        { accountId, q: query.q, subscribed: query.subscribed, bounced: query.bounced, tag: query.tag },
        query.page,
        query.perPage,
      );
      res.json(contactPageResource(page));
    })
    .post(async (req, res) => {
      const input = parse(newContactSchema, contactFields(req.body));
      const contact = await createContact(deps, identityOf(res).accountId, input);
      res.status(201).json({ data: contactResource(contact) });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/:id')
    .get(async (req, res) => {
      const contact = await getContact(deps.pool, identityOf(res).accountId, contactId(req.params.id));
      res.json({ data: contactResource(contact) });
    })
    .patch(async (req, res) => {
      const id = contactId(req.params.id);
      const { accountId } = identityOf(res);
      await assertContactExists(deps.pool, accountId, id);
      const input = parse(contactChangesSchema, contactFields(req.body));
      const contact = await updateContactFields(deps, accountId, id, input);
      res.json({ data: contactResource(contact) });
    })
    .delete(async (req, res) => {
      await removeContact(deps.pool, identityOf(res).accountId, contactId(req.params.id));
      res.status(204).end();
    })
    .all(methodNotAllowed(['GET', 'PATCH', 'DELETE']));

  return router;
}
