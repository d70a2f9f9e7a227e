import { Router, type Request } from 'express';
import { isRefused } from '../../../data-access/automation.client';
import { callerOf, requireCsrf, viewerOf } from '../../http/session.middleware';
import type { WebDeps } from '../../http/web-deps';
import { sendingFormOf, sendingSettingsPage, type SendingForm } from './sending-settings.page';

const field = (req: Request, name: string) => {
  const value = (req.body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value.trim() : '';
};

/** Problems of the campaigns service (`rate_per_second: …`) by field. */
function byField(messages: string[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const message of messages) {
    const match = /^(rate_per_second|from_name|from_address):?\s*(.*)$/s.exec(message);
    (errors[match?.[1] ?? 'form'] ??= []).push(match?.[2] ?? message);
  }
  return errors;
}

/** /app/settings/sending: the campaigns service's per-account sending settings. */
export function sendingSettingsRoutes(deps: WebDeps): Router {
  const router = Router();

  router.get('/', async (req, res) => {
    const settings = await deps.campaigns.sendingSettings(callerOf(req, res));
    res.type('html').send(sendingSettingsPage({ viewer: viewerOf(res), form: sendingFormOf(settings), saved: req.query.saved === '1' }));
  });

  router.post('/', requireCsrf, async (req, res) => {
    const form: SendingForm = { rate: field(req, 'rate_per_second'), fromName: field(req, 'from_name'), fromAddress: field(req, 'from_address') };
    const rate = form.rate === '' ? null : /^\d{1,9}$/.test(form.rate) ? Number(form.rate) : Number.NaN;
    if (Number.isNaN(rate)) {
      return void res.status(422).type('html').send(sendingSettingsPage({ viewer: viewerOf(res), form, errors: { rate_per_second: ['must be a whole number of emails per second'] } }));
    }
    const answer = await deps.campaigns.saveSendingSettings(callerOf(req, res), {
      rate_per_second: rate,
      from_name: form.fromName || null,
      from_address: form.fromAddress || null,
    });
    if (isRefused(answer)) return void res.status(422).type('html').send(sendingSettingsPage({ viewer: viewerOf(res), form, errors: byField(answer.refused) }));
    res.redirect(303, '/app/settings/sending?saved=1');
  });

  return router;
}
