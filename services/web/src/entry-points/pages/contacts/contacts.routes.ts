import { Router, type Request, type Response } from 'express';
import { AppError, CommonErrorCodes } from '@mailer/shared';
import { isRejection, type Contact, type ContactFilter } from '../../../data-access/contacts.client';
import { callerOf, requireCsrf, viewerOf } from '../../http/session.middleware';
import type { WebDeps } from '../../http/web-deps';
import { contactChanges, emptyForm, fieldErrors, formOf, newContactInput, readForm, type ContactForm } from './contact-form';
import { contactFormPage, deleteConfirmPage } from './contact-form.page';
import { contactImportRoutes } from './contact-import.routes';
import { contactPage } from './contact.page';
import { contactsListPage } from './contacts-list.page';
import { streamContactsCsv } from './contacts-export';

const PER_PAGE = 25;

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const flag = (value: unknown) => (value === 'true' ? true : value === 'false' ? false : undefined);

/** The filter in the address bar (so a filtered list can be bookmarked and shared). */
function filterOf(req: Request): ContactFilter {
  return { q: text(req.query.q), tag: text(req.query.tag), subscribed: flag(req.query.subscribed), bounced: flag(req.query.bounced) };
}

function queryOf(filter: ContactFilter, page?: number): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value !== undefined) query.set(key, String(value));
  if (page !== undefined) query.set('page', String(page));
  return query.toString();
}

/** After a change, the contact page says what happened (a fixed set of words, never text from the address). */
const NOTICES: Record<string, string> = {
  created: 'Contact added.',
  saved: 'Changes saved.',
  unsubscribed: 'Unsubscribed: no marketing email will be sent to this address.',
  untagged: 'Tag removed.',
};

const idOf = (req: Request): number => {
  const raw = String(req.params.id);
  if (!/^[1-9]\d{0,14}$/.test(raw)) throw new AppError(CommonErrorCodes.NOT_FOUND, 'contact not found');
  return Number(raw);
};

const bodyOf = (req: Request) => (req.body ?? {}) as Record<string, unknown>;

/**
 * /app/contacts: the paged list with search and filters, create, edit, delete (after a
 * confirmation), unsubscribe, tag removal, the CSV import and export, and each contact's page with
 * their runs and emails. The contacts service decides every rule; its 422 reasons are shown next
 * to their field.
 */
export function contactRoutes(deps: WebDeps): Router {
  const router = Router();

  router.get('/', async (req, res) => {
    const filter = filterOf(req);
    const requested = Number(req.query.page);
    const page = Number.isSafeInteger(requested) && requested >= 1 ? requested : 1;
    const result = await deps.contacts.list(callerOf(req, res), filter, page, PER_PAGE);
    res.type('html').send(
      contactsListPage({ viewer: viewerOf(res), filter, result, query: (to) => `/app/contacts?${queryOf(filter, to)}`, exportHref: `/app/contacts/export?${queryOf(filter)}` }),
    );
  });

  router.get('/export', async (req, res) => {
    await streamContactsCsv(deps.contacts, callerOf(req, res), filterOf(req), res);
  });

  router.use('/import', contactImportRoutes(deps));

  router.get('/new', (_req, res) => {
    res.type('html').send(contactFormPage({ viewer: viewerOf(res), form: emptyForm() }));
  });

  router.post('/new', requireCsrf, async (req, res) => {
    const form = readForm(bodyOf(req));
    if (bodyOf(req)._action !== 'save') return void res.type('html').send(contactFormPage({ viewer: viewerOf(res), form }));
    const created = await deps.contacts.create(callerOf(req, res), newContactInput(form));
    if (isRejection(created)) return void refused(res, form, created.messages);
    res.redirect(303, `/app/contacts/${created.id}?done=created`);
  });

  router.get('/:id', async (req, res) => {
    const caller = callerOf(req, res);
    // Another account's id is a 404 from the contacts service: it scopes by the signed identity.
    const contact = await deps.contacts.get(caller, String(req.params.id));
    const [history, emails] = await Promise.all([deps.figures.contactHistory(caller, contact.id), deps.engagement.contactEmails(caller, contact.id)]);
    res.type('html').send(contactPage({ contact, history, emails, viewer: viewerOf(res), notice: NOTICES[String(req.query.done)] }));
  });

  router.get('/:id/edit', async (req, res) => {
    const contact = await deps.contacts.get(callerOf(req, res), String(idOf(req)));
    res.type('html').send(contactFormPage({ viewer: viewerOf(res), form: formOf(contact), contactId: contact.id }));
  });

  router.post('/:id/edit', requireCsrf, async (req, res) => {
    const caller = callerOf(req, res);
    const before = await deps.contacts.get(caller, String(idOf(req)));
    const form = readForm(bodyOf(req));
    if (bodyOf(req)._action !== 'save') return void res.type('html').send(contactFormPage({ viewer: viewerOf(res), form, contactId: before.id }));
    const { input, removedTags } = contactChanges(before, form);
    if (Object.keys(input).length > 0) {
      const updated: Contact | { messages: string[] } = await deps.contacts.update(caller, before.id, input);
      if (isRejection(updated)) return void refused(res, form, updated.messages, before.id);
    }
    for (const tag of removedTags) await deps.contacts.removeTag(caller, before.id, tag);
    res.redirect(303, `/app/contacts/${before.id}?done=saved`);
  });

  router.get('/:id/delete', async (req, res) => {
    const contact = await deps.contacts.get(callerOf(req, res), String(idOf(req)));
    res.type('html').send(deleteConfirmPage({ viewer: viewerOf(res), contactId: contact.id, email: contact.email }));
  });

  router.post('/:id/delete', requireCsrf, async (req, res) => {
    await deps.contacts.remove(callerOf(req, res), idOf(req));
    res.redirect(303, '/app/contacts');
  });

  router.post('/:id/unsubscribe', requireCsrf, async (req, res) => {
    const id = idOf(req);
    const updated = await deps.contacts.update(callerOf(req, res), id, { subscribed: false });
    if (isRejection(updated)) throw new AppError(CommonErrorCodes.BAD_REQUEST, updated.messages.join('; '));
    res.redirect(303, `/app/contacts/${id}?done=unsubscribed`);
  });

  router.post('/:id/tags/remove', requireCsrf, async (req, res) => {
    const id = idOf(req);
    const tag = text(bodyOf(req).tag);
    if (!tag) throw new AppError(CommonErrorCodes.BAD_REQUEST, 'Choose a tag to remove.');
    await deps.contacts.removeTag(callerOf(req, res), id, tag);
    res.redirect(303, `/app/contacts/${id}?done=untagged`);
  });

  return router;
}

/** The form again, with what was typed and the service's reasons next to each field (422). */
function refused(res: Response, form: ContactForm, messages: string[], contactId?: number): void {
  res.status(422).type('html').send(contactFormPage({ viewer: viewerOf(res), form, errors: fieldErrors(messages), contactId }));
}
