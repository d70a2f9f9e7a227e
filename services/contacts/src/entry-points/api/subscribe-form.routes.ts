import express, { Router, type Request } from 'express';
import { AppError, CommonErrorCodes, identityOf, sendPublicPage, type Redis } from '@mailer/shared';
import { formToken } from '../../data-access/subscribe-forms.repository';
import type { ContactUseCaseDeps } from '../../domain/create-contact';
import { subscribeFromForm } from '../../domain/subscribe-from-form';

/** Submissions one client address may make to one form in a window (spam bots, mistakes). */
const SUBMISSIONS_PER_WINDOW = 5;
const WINDOW_SECONDS = 600;
/** A field people never see: a bot filling every input fills it too. */
const HONEYPOT = 'website';

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}label{display:block;margin:.75rem 0 .25rem}' +
  'input{font-size:1rem;padding:.4rem;width:100%;box-sizing:border-box}button{font-size:1rem;padding:.5rem 1rem;margin-top:1rem}.hp{position:absolute;left:-10000px}' +
  '.error{color:#a00}';

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
  `<title>${title}</title><style>${STYLE}</style></head><body><h1>${title}</h1>${body}</body></html>`;

const formPage = (error?: string, values: { email?: string; first_name?: string } = {}) =>
  page(
    'Subscribe',
    (error ? `<p class="error" role="alert">${escape(error)}</p>` : '') +
      '<form method="post">' +
      `<label for="email">Email address</label><input id="email" name="email" type="email" required maxlength="254" autocomplete="email" value="${escape(values.email ?? '')}">` +
      `<label for="first_name">First name (optional)</label><input id="first_name" name="first_name" maxlength="255" autocomplete="given-name" value="${escape(values.first_name ?? '')}">` +
      `<div class="hp" aria-hidden="true"><label for="${HONEYPOT}">Leave this empty</label><input id="${HONEYPOT}" name="${HONEYPOT}" tabindex="-1" autocomplete="off"></div>` +
      '<button type="submit">Subscribe</button></form>',
  );

const thanksPage = () =>
  page(
    'Thank you',
    '<p>If this address can receive our emails, you will hear from us shortly (check your inbox to confirm).</p>',
  );

// Only the gateway reaches this service; it sets X-Forwarded-For to the client's address.
const clientOf = (req: Request) =>
  req.get('x-forwarded-for')?.split(',')[0]?.trim() || req.socket.remoteAddress || 'unknown';

const field = (body: unknown, name: string): string => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};

/**
 * The account's hosted subscribe form (public: the gateway forwards `/subscribe/*` as is), and the
 * internal route the account app reads its address from. A filled honeypot gets the thank-you page
 * and changes nothing; more than 5 submissions from one address to one form in 10 minutes get 429.
 */
export function subscribeFormRoutes(deps: ContactUseCaseDeps & { redis: Redis }): {
  publicRoutes: Router;
  internalRoutes: Router;
} {
  const publicRoutes = Router();
  publicRoutes.get('/subscribe/:token', (_req, res) =>
    sendPublicPage(res, 200, formPage(), { allowFraming: true }),
  );
  publicRoutes.post(
    '/subscribe/:token',
    express.urlencoded({ extended: false, limit: '4kb' }),
    async (req, res) => {
      const key = `subscribe-form:${req.params.token}:${clientOf(req)}`;
      const [[, count]] = (await deps.redis.multi().incr(key).expire(key, WINDOW_SECONDS, 'NX').exec()) as [
        [null, number],
      ];
      if (count > SUBMISSIONS_PER_WINDOW) {
        sendPublicPage(
          res.set('Retry-After', String(WINDOW_SECONDS)),
          429,
          page('Too many attempts', '<p>Please try again in a few minutes.</p>'),
          { allowFraming: true },
        );
        return;
      }
      if (field(req.body, HONEYPOT) !== '') {
        sendPublicPage(res, 200, thanksPage(), { allowFraming: true });
        return;
      }
      const values = { email: field(req.body, 'email'), first_name: field(req.body, 'first_name') };
      try {
        await subscribeFromForm(deps, req.params.token, values);
      } catch (error) {
        if (error instanceof AppError && error.code === CommonErrorCodes.NOT_FOUND) {
          sendPublicPage(res, 404, page('Form not found', '<p>This subscribe form does not exist.</p>'), {
            allowFraming: true,
          });
          return;
        }
        const mistake =
          error instanceof AppError &&
          (error.code.startsWith('CONTACT.') ||
            error.code.startsWith('EMAIL.') ||
            error.code === CommonErrorCodes.VALIDATION);
        if (mistake) {
          sendPublicPage(
            res,
            422,
            formPage(`That address cannot be used: ${(error as AppError).messages.join('; ')}`, values),
            { allowFraming: true },
          );
          return;
        }
        throw error;
      }
      sendPublicPage(res, 200, thanksPage(), { allowFraming: true });
    },
  );

  const internalRoutes = Router();
  internalRoutes.get('/subscribe-form', async (_req, res) => {
    res.json({ data: { path: `/subscribe/${await formToken(deps.pool, identityOf(res).accountId)}` } });
  });
  return { publicRoutes, internalRoutes };
}
