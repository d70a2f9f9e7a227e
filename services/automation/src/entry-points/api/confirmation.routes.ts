import express, { Router } from 'express';
import {
  bodyObject,
  identityOf,
  isWellFormedEmail,
  jsonBody,
  sendPublicPage,
  validationFailed,
  type Pool,
} from '@mailer/shared';
import { z } from 'zod';
import {
  findConfirmationTemplate,
  saveConfirmationTemplate,
} from '../../data-access/confirmation-templates.repository';
import { confirmSubscription } from '../../domain/confirmation/confirm-subscription';
import { verifyConfirmationToken } from '../../domain/confirmation/confirmation-token';
import { DEFAULT_CONFIRMATION } from '../../domain/confirmation/confirmation-workflow';
import { previewEmail } from '../../domain/app/preview-email';
import type { EmailRenderer } from '../../domain/rendering/render-email';
import type { SendContext } from '../../domain/sending/send-context';
import { renderOr422 } from './internal-workflows.routes';

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}button{font-size:1rem;padding:.5rem 1rem}';

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
  `<title>${title}</title><style>${STYLE}</style></head><body><h1>${title}</h1>${body}</body></html>`;

/**
 * Public (the gateway forwards `/confirm/*` as is). GET asks, POST confirms: mail scanners fetch
 * every link they see, and a fetch must not count as consent.
 */
export function confirmationPageRoutes(deps: {
  pool: Pool;
  secret: string;
  onConfirmed: () => void;
}): Router {
  const router = Router();
  router.get('/confirm/:token', (req, res) => {
    const valid = verifyConfirmationToken(req.params.token, deps.secret) !== undefined;
    sendPublicPage(
      res,
      valid ? 200 : 404,
      valid
        ? page(
            'Confirm your subscription',
            '<p>Do you want to receive these emails?</p><form method="post"><button type="submit">Yes, subscribe me</button></form>',
          )
        : page(
            'Link not valid',
            '<p>This confirmation link is not valid. Please use the link from your email.</p>',
          ),
    );
  });
  router.post('/confirm/:token', express.urlencoded({ extended: false, limit: '2kb' }), async (req, res) => {
    const target = verifyConfirmationToken(req.params.token, deps.secret);
    if (!target) {
      sendPublicPage(
        res,
        404,
        page(
          'Link not valid',
          '<p>This confirmation link is not valid. Please use the link from your email.</p>',
        ),
      );
      return;
    }
    // Only the gateway reaches this service, and it sets X-Forwarded-For to the client's address.
    const from = req.get('x-forwarded-for')?.split(',')[0]?.trim() || req.socket.remoteAddress || 'unknown';
    await confirmSubscription(deps.pool, target, from);
    deps.onConfirmed();
    sendPublicPage(res, 200, page('You are subscribed', '<p>Thank you for confirming.</p>'));
  });
  return router;
}

const templateBody = z.strictObject({
  subject: z.string().trim().min(1).max(998),
  html: z.string().min(1).max(256 * 1024),
  /** Null or empty: the text part is generated from the HTML. */
  text: z.string().max(256 * 1024).nullable().default(null).transform((text) => (text?.trim() ? text : null)),
});

const previewBody = templateBody.extend({ contact_email: z.string().max(254) });

/** A template the renderer can parse and that carries the confirm link, or every problem by field. */
function checkedTemplate(renderer: EmailRenderer, body: unknown) {
  const parsed = previewBody.partial({ contact_email: true }).safeParse(body);
  if (!parsed.success) throw validationFailed(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`));
  const problems: string[] = [];
  for (const [field, source, mode] of [
    ['subject', parsed.data.subject, 'text'],
    ['html', parsed.data.html, 'html'],
    ['text', parsed.data.text, 'text'],
  ] as const) {
    if (source === null) continue;
    try {
      renderer.check(source, mode);
    } catch (error) {
      problems.push(`${field}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (!parsed.data.html.includes('confirm_url')) problems.push('html: must contain {{ confirm_url }}, the link that confirms');
  if (problems.length > 0) throw validationFailed(problems);
  return parsed.data;
}

/**
 * The account app's Settings → Double opt-in: the confirmation email, checked by the renderer
 * before it is saved, and its preview for one contact (a sample confirm link that confirms nothing).
 */
export function confirmationTemplateRoutes(deps: { pool: Pool; ctx: SendContext }): Router {
  const router = Router();
  router
    .route('/confirmation-template')
    .get(async (_req, res) => {
      const own = await findConfirmationTemplate(deps.pool, identityOf(res).accountId);
      res.json({ data: { ...(own ?? DEFAULT_CONFIRMATION), default: own === undefined } });
    })
    .put(jsonBody('600kb'), async (req, res) => {
      const { subject, html, text } = checkedTemplate(deps.ctx.renderer, bodyObject(req.body));
      const template = { subject, html, text };
      await saveConfirmationTemplate(deps.pool, identityOf(res).accountId, template);
      res.json({ data: { ...template, default: false } });
    });

  router.post('/confirmation-template/preview', jsonBody('600kb'), async (req, res) => {
    const { subject, html, text, contact_email: given } = checkedTemplate(deps.ctx.renderer, bodyObject(req.body));
    const email = (given ?? '').trim();
    if (!isWellFormedEmail(email)) throw validationFailed(['contact_email: must be an email address']);
    const step = { id: 'confirm', type: 'email' as const, subject, html, ...(text === null ? {} : { text }) };
    const confirmUrl = `${deps.ctx.publicBaseUrl.replace(/\/$/, '')}/confirm/sample`;
    const sample = { source: { kind: 'step' as const, step, fallbacks: {} }, contactEmail: email, properties: { confirm_url: confirmUrl } };
    res.json({ data: await renderOr422(() => previewEmail(deps.ctx, identityOf(res).accountId, sample)) });
  });
  return router;
}
