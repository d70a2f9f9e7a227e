import { Router, type Request, type Response } from 'express';
import { isRefused } from '../../../data-access/automation.client';
import { emailFrameHeaders } from '../../http/security-headers';
import { callerOf, requireCsrf, viewerOf } from '../../http/session.middleware';
import type { WebDeps } from '../../http/web-deps';
import { DOUBLE_OPT_IN_PATH, doubleOptInPage, templateFormOf, type DoubleOptInView, type TemplateForm } from './double-opt-in.page';

const bodyText = (req: Request, name: string) => {
  const value = (req.body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
};

const queryText = (value: unknown) => (typeof value === 'string' ? value.trim().slice(0, 254) : '');

/** Automation's problems (`subject: …`, `html: …`, `text: …`, `contact_email: …`) by form field. */
function byField(messages: string[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const message of messages) {
    const match = /^(subject|html|text|contact_email):\s*(.*)$/s.exec(message);
    (errors[match?.[1] ?? 'form'] ??= []).push(match?.[2] ?? message);
  }
  return errors;
}

const NOTICES: Record<string, string> = {
  on: 'Double opt-in is on: new contacts from events, imports and the subscribe form confirm first.',
  off: 'Double opt-in is off: new contacts are subscribed as they arrive.',
  saved: 'Saved. The next confirmation email uses it.',
};

/**
 * /app/settings/double-opt-in: the switch and the subscribe form (contacts), the confirmation
 * email and its preview (automation). The preview shows the saved email for a sample contact (the
 * signed-in person's address until another is asked for).
 */
export function doubleOptInRoutes(deps: WebDeps): Router {
  const router = Router();

  const render = async (req: Request, res: Response, status: number, edited?: { form: TemplateForm; errors: Record<string, string[]> }) => {
    const caller = callerOf(req, res);
    const contact = queryText(req.query.contact) || viewerOf(res).email;
    const [enabled, template, formPath] = await Promise.all([deps.doubleOptIn.enabled(caller), deps.doubleOptIn.template(caller), deps.doubleOptIn.subscribeFormPath(caller)]);
    const rendered = await deps.doubleOptIn.preview(caller, template, contact);
    const view: DoubleOptInView = {
      viewer: viewerOf(res),
      enabled,
      usingDefault: template.default,
      form: edited?.form ?? templateFormOf(template),
      errors: edited?.errors,
      notice: NOTICES[queryText(req.query.done)],
      preview: isRefused(rendered) ? { contact, errors: byField(rendered.refused).contact_email ?? rendered.refused } : { contact, sample: rendered },
      // The gateway forwards the address people reached us at (trust proxy): the form lives there too.
      subscribeFormUrl: `${req.protocol}://${req.host}${formPath}`,
    };
    res.status(status).type('html').send(doubleOptInPage(view));
  };

  router.get('/', (req, res) => render(req, res, 200));

  router.post('/switch', requireCsrf, async (req, res) => {
    const enabled = bodyText(req, 'enabled') === 'true';
    await deps.doubleOptIn.setEnabled(callerOf(req, res), enabled);
    res.redirect(303, `${DOUBLE_OPT_IN_PATH}?done=${enabled ? 'on' : 'off'}`);
  });

  router.post('/template', requireCsrf, async (req, res) => {
    const form: TemplateForm = { subject: bodyText(req, 'subject'), html: bodyText(req, 'html'), text: bodyText(req, 'text') };
    const refused = await deps.doubleOptIn.saveTemplate(callerOf(req, res), { subject: form.subject, html: form.html, text: form.text.trim() === '' ? null : form.text });
    if (refused) return render(req, res, 422, { form, errors: byField(refused.refused) });
    res.redirect(303, `${DOUBLE_OPT_IN_PATH}?done=saved`);
  });

  // The saved email's HTML alone, for the preview's sandboxed frame.
  router.get('/preview/frame', emailFrameHeaders, async (req, res) => {
    const caller = callerOf(req, res);
    const rendered = await deps.doubleOptIn.preview(caller, await deps.doubleOptIn.template(caller), queryText(req.query.contact));
    if (isRefused(rendered)) return void res.status(422).type('text').send(rendered.refused.join('\n'));
    res.type('html').send(rendered.html ?? '');
  });

  return router;
}
