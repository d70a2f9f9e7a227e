import { Router, type Request, type Response } from 'express';
import { isRefused } from '../../../data-access/automation.client';
import type { WebhookEndpoint } from '../../../data-access/webhooks.client';
import { clearCookie, readCookie, setCookie } from '../../http/cookies';
import { callerOf, requireCsrf, signedInOf, viewerOf } from '../../http/session.middleware';
import type { WebDeps } from '../../http/web-deps';
import { endpointPage, type EndpointPageOptions } from './webhook-endpoint.page';
import { deleteConfirmPage, emptyEndpointForm, WEBHOOKS_PATH, webhooksPage, type EndpointForm, type FieldErrors } from './webhooks.page';

/** Carries a new or rotated secret from the POST to the endpoint's page, sealed to the session, read once. */
const SECRET_COOKIE = 'mk_app_webhook_secret';
const DELIVERIES_PER_PAGE = 20;
const ID = /^[1-9]\d{0,14}$/;

const text = (req: Request, name: string) => {
  const value = (req.body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value.trim() : '';
};

/** Checkboxes: absent, one value, or several. */
const checked = (req: Request, name: string): string[] => {
  const value = (req.body as Record<string, unknown>)[name];
  return (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === 'string');
};

const formOf = (req: Request, withEnabled: boolean): EndpointForm => ({
  url: text(req, 'url'),
  description: text(req, 'description'),
  eventTypes: checked(req, 'event_types'),
  enabled: withEnabled ? text(req, 'enabled') === 'true' : true,
});

/**
 * The webhooks service's problems by form field: `url: …`, `url refused: …` (an address the
 * operator does not allow), `event_types: …` or `event_types.2: …`; anything else above the form.
 */
export function byField(messages: string[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const message of messages) {
    const match = /^(url|event_types|description)(?:\.\d+)?( refused)?:\s*(.*)$/s.exec(message);
    const key = match?.[1] ?? 'form';
    (errors[key] ??= []).push(match ? (match[2] ? `refused: ${match[3]}` : match[3]!) : message);
  }
  return errors;
}

/** The page path's endpoint id as a number; a malformed one is a missing endpoint (the client's 404). */
const idOf = (req: Request): number => (ID.test(req.params.id as string) ? Number(req.params.id) : 0);

/**
 * /app/settings/webhooks: the account's endpoints in the webhooks service (list, create with the
 * secret shown once, edit, enable/disable, rotate, delete after a confirmation, the delivery log
 * with resend). Every call is scoped by the signed identity; another account's id is a 404 page.
 */
export function webhooksRoutes(deps: WebDeps): Router {
  const router = Router();

  const showSecretOnce = (req: Request, res: Response, endpoint: WebhookEndpoint, secret: string, rotated: boolean) => {
    const sealed = deps.flash.seal({ plaintext: secret, name: `${rotated ? 'rotated' : 'new'}:${endpoint.id}:${endpoint.url}` }, signedInOf(res)!.token);
    setCookie(req, res, SECRET_COOKIE, sealed, { path: WEBHOOKS_PATH, maxAge: 120_000, sameSite: 'strict' });
    res.redirect(303, `${WEBHOOKS_PATH}/${endpoint.id}`);
  };

  /** The secret sealed for this endpoint, if the previous response left one (cleared now either way). */
  const takeSecret = (req: Request, res: Response, endpoint: WebhookEndpoint): EndpointPageOptions['secret'] => {
    const sealed = readCookie(req, SECRET_COOKIE);
    if (!sealed) return undefined;
    clearCookie(req, res, SECRET_COOKIE, WEBHOOKS_PATH);
    const opened = deps.flash.open(sealed, signedInOf(res)!.token);
    const match = opened && /^(new|rotated):(\d+):(.*)$/s.exec(opened.name);
    if (!opened || !match || Number(match[2]) !== endpoint.id) return undefined;
    return { plaintext: opened.plaintext, name: match[3]!, rotated: match[1] === 'rotated' };
  };

  const renderEndpoint = async (req: Request, res: Response, status: number, extra: Partial<EndpointPageOptions> = {}) => {
    const caller = callerOf(req, res);
    const endpoint = await deps.webhooks.get(caller, idOf(req));
    const before = typeof req.query.before === 'string' && ID.test(req.query.before) ? Number(req.query.before) : undefined;
    const [eventTypes, page] = await Promise.all([
      deps.webhooks.eventTypes(caller),
      deps.webhooks.deliveries(caller, endpoint.id, { limit: DELIVERIES_PER_PAGE + 1, before }),
    ]);
    const deliveries = page.slice(0, DELIVERIES_PER_PAGE);
    const nextBefore = page.length > DELIVERIES_PER_PAGE ? deliveries.at(-1)?.id : undefined;
    const notice = req.query.resent === '1' ? 'Queued again: the delivery is sent from the start of its schedule with the same webhook-id.' : req.query.saved === '1' ? 'Saved.' : undefined;
    res.status(status).type('html').send(endpointPage({ viewer: viewerOf(res), endpoint, eventTypes, deliveries, nextBefore, notice, secret: takeSecret(req, res, endpoint), ...extra }));
  };

  router.get('/', async (req, res) => {
    const caller = callerOf(req, res);
    const [endpoints, eventTypes] = await Promise.all([deps.webhooks.list(caller), deps.webhooks.eventTypes(caller)]);
    res.type('html').send(webhooksPage({ viewer: viewerOf(res), endpoints, eventTypes, form: emptyEndpointForm() }));
  });

  router.post('/', requireCsrf, async (req, res) => {
    const caller = callerOf(req, res);
    const form = formOf(req, true);
    const answer = await deps.webhooks.create(caller, { url: form.url, event_types: form.eventTypes, description: form.description, enabled: form.enabled });
    if (isRefused(answer)) {
      const [endpoints, eventTypes] = await Promise.all([deps.webhooks.list(caller), deps.webhooks.eventTypes(caller)]);
      return void res.status(422).type('html').send(webhooksPage({ viewer: viewerOf(res), endpoints, eventTypes, form, errors: byField(answer.refused) }));
    }
    showSecretOnce(req, res, answer.data, answer.secret, false);
  });

  router.get('/:id', (req, res) => renderEndpoint(req, res, 200));

  router.post('/:id', requireCsrf, async (req, res) => {
    const form = formOf(req, false);
    const answer = await deps.webhooks.update(callerOf(req, res), idOf(req), { url: form.url, event_types: form.eventTypes, description: form.description });
    if (isRefused(answer)) return renderEndpoint(req, res, 422, { form, errors: byField(answer.refused) });
    res.redirect(303, `${WEBHOOKS_PATH}/${answer.id}?saved=1`);
  });

  for (const [action, enabled] of [['enable', true], ['disable', false]] as const) {
    router.post(`/:id/${action}`, requireCsrf, async (req, res) => {
      const answer = await deps.webhooks.update(callerOf(req, res), idOf(req), { enabled });
      if (isRefused(answer)) return renderEndpoint(req, res, 422, { errors: byField(answer.refused) });
      res.redirect(303, `${WEBHOOKS_PATH}/${answer.id}`);
    });
  }

  router.post('/:id/rotate-secret', requireCsrf, async (req, res) => {
    const { data, secret } = await deps.webhooks.rotateSecret(callerOf(req, res), idOf(req));
    showSecretOnce(req, res, data, secret, true);
  });

  router.get('/:id/delete', async (req, res) => {
    res.type('html').send(deleteConfirmPage(await deps.webhooks.get(callerOf(req, res), idOf(req)), viewerOf(res)));
  });

  router.post('/:id/delete', requireCsrf, async (req, res) => {
    await deps.webhooks.delete(callerOf(req, res), idOf(req));
    res.redirect(303, WEBHOOKS_PATH);
  });

  router.post('/:id/deliveries/:deliveryId/resend', requireCsrf, async (req, res) => {
    await deps.webhooks.resend(callerOf(req, res), idOf(req), req.params.deliveryId as string);
    res.redirect(303, `${WEBHOOKS_PATH}/${idOf(req)}?resent=1#deliveries`);
  });

  return router;
}
