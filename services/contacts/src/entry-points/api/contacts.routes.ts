import { Router, type Response } from 'express';
import { identityOf, jsonBody, methodNotAllowed, type HotRoutes, type JsonAnswer } from '@mailer/shared';
import { removeContact } from '../../domain/delete-contact';
import { contactAnswers, contactId, type ContactAnswerDeps } from './contact-answers';

/** A contact body is small: its fields' own limits (docs/api.md) fit well inside this. */
const CONTACT_BODY_LIMIT_BYTES = 64 * 1024;

const send = (res: Response, answer: JsonAnswer) => res.status(answer.status).json(answer.body);

/** The busiest contact routes on the hot path (see HotRoutes); the router below serves every other shape. */
export function addHotContactRoutes(routes: HotRoutes, deps: ContactAnswerDeps): void {
  const answers = contactAnswers(deps);
  const limit = { bodyLimitBytes: CONTACT_BODY_LIMIT_BYTES };
  routes
    .add('GET', '/api/v1/contacts/:id', ({ identity, params }) => answers.show(identity.accountId, params[0]))
    .add('POST', '/api/v1/contacts', ({ identity, body }) => answers.create(identity.accountId, body), limit)
    .add('PATCH', '/api/v1/contacts/:id', ({ identity, params, body }) => answers.update(identity.accountId, params[0], body), limit);
}

export function contactsRoutes(deps: ContactAnswerDeps): Router {
  const answers = contactAnswers(deps);
  const router = Router();
  router.use(jsonBody(CONTACT_BODY_LIMIT_BYTES));

  router
    .route('/')
    .get(async (req, res) => {
      send(res, await answers.list(identityOf(res).accountId, req.query));
    })
    .post(async (req, res) => {
      send(res, await answers.create(identityOf(res).accountId, req.body));
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/:id')
    .get(async (req, res) => {
      send(res, await answers.show(identityOf(res).accountId, req.params.id));
    })
    .patch(async (req, res) => {
      send(res, await answers.update(identityOf(res).accountId, req.params.id, req.body));
    })
    .delete(async (req, res) => {
      await removeContact(deps.pool, identityOf(res).accountId, contactId(req.params.id));
      res.status(204).end();
    })
    .all(methodNotAllowed(['GET', 'PATCH', 'DELETE']));

  return router;
}
