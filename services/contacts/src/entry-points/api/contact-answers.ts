import type { z } from 'zod';
import { bodyObject, notFound, zodMessages, type JsonAnswer, type Pool } from '@mailer/shared';
import { invalidContact } from '../../domain/contact.errors';
import { createContact, type ContactUseCaseDeps } from '../../domain/create-contact';
import { assertContactExists, getContact, listContactPage } from '../../domain/read-contacts';
import { updateContactFields } from '../../domain/update-contact';
import { contactChangesSchema, newContactSchema } from './contact.schemas';
import { contactPageResource, contactResource } from './contact-response';
import { parseListQuery } from './list-query';

export type ContactAnswerDeps = ContactUseCaseDeps & { pool: Pool };

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
    throw invalidContact(
      conflicts.map((field) => `${field} is given both flat and under contact, with different values`),
    );
  }
  return { ...flat, ...nested };
}

/** An id that is not a positive integer names no contact: 404, like an unknown one. */
export function contactId(raw: string | undefined): number {
  const id = /^\d{1,15}$/.test(raw ?? '') ? Number(raw) : 0;
  if (id < 1) throw notFound('contact');
  return id;
}

function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidContact(zodMessages(result.error));
  return result.data;
}

/**
 * The read answers: `rawId` is the path segment as sent, `rawQuery` the query string as Express's
 * 'simple' parser (node:querystring) gives it.
 */
const contactReadAnswers = (pool: Pool) => ({
  async show(accountId: number, rawId: string | undefined): Promise<JsonAnswer> {
    const contact = await getContact(pool, accountId, contactId(rawId));
    return { status: 200, body: { data: contactResource(contact) } };
  },

  async list(accountId: number, rawQuery: Record<string, unknown>): Promise<JsonAnswer> {
    const query = parseListQuery(rawQuery);
    const filter = { accountId, q: query.q, subscribed: query.subscribed, bounced: query.bounced, tag: query.tag };
    const page = await listContactPage(pool, filter, query.page, query.perPage);
    return { status: 200, body: contactPageResource(page) };
  },
});

/**
 * One contact's API answers, whichever end serves the request (the hot routes or the Express
 * router): `rawId` is the path segment as sent, `body` the parsed JSON.
 */
export const contactAnswers = (deps: ContactAnswerDeps) => ({
  ...contactReadAnswers(deps.pool),

  async create(accountId: number, body: unknown): Promise<JsonAnswer> {
    const input = parse(newContactSchema, contactFields(body));
    const contact = await createContact(deps, accountId, input);
    return { status: 201, body: { data: contactResource(contact) } };
  },

  async update(accountId: number, rawId: string | undefined, body: unknown): Promise<JsonAnswer> {
    const id = contactId(rawId);
    await assertContactExists(deps.pool, accountId, id);
    const input = parse(contactChangesSchema, contactFields(body));
    const contact = await updateContactFields(deps, accountId, id, input);
    return { status: 200, body: { data: contactResource(contact) } };
  },
});
