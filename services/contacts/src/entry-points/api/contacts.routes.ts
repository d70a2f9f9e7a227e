import { Router } from 'express';
import type { z } from 'zod';
import { bodyObject, identityOf, jsonBody, methodNotAllowed, notFound, type Pool } from '@mailer/shared';
import { invalidContact } from '../../domain/contact.errors';
import { createContact, type ContactUseCaseDeps } from '../../domain/create-contact';
import { removeContact } from '../../domain/delete-contact';
import { assertContactExists, getContact, listContactPage } from '../../domain/read-contacts';
import { updateContactFields } from '../../domain/update-contact';
import { contactChangesSchema, issueMessages, newContactSchema } from './contact.schemas';
import { contactPageResource, contactResource } from './contact-response';
import { parseListQuery } from './list-query';

/** The contact's fields, flat or nested under `contact` (both forms are accepted). */
function contactFields(body: unknown): Record<string, unknown> {
  const object = bodyObject(body);
  const nested = object.contact;
  return typeof nested === 'object' && nested !== null && !Array.isArray(nested)
    ? (nested as Record<string, unknown>)
    : object;
}

/** An id that is not a positive integer names no contact: 404, like an unknown one. */
function contactId(raw: string | undefined): number {
  const id = /^\d{1,15}$/.test(raw ?? '') ? Number(raw) : 0;
  if (id < 1) throw notFound('contact');
  return id;
}

function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidContact(issueMessages(result.error));
  return result.data;
}

export function contactsRoutes(deps: ContactUseCaseDeps & { pool: Pool }): Router {
  const router = Router();
  router.use(jsonBody('1mb'));

  router
    .route('/')
    .get(async (req, res) => {
      const query = parseListQuery(req.query);
      const { accountId } = identityOf(res);
      const page = await listContactPage(
        deps.pool,
        { accountId, q: query.q, subscribed: query.subscribed, bounced: query.bounced },
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
