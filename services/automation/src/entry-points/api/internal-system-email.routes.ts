import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { AppError, bodyObject, CommonErrorCodes, identityOf, isWellFormedEmail, jsonBody, validationFailed } from '@mailer/shared';
import { SmtpFailure } from '../../data-access/smtp-mailer';
import type { SendContext } from '../../domain/sending/send-context';
import type { SmtpProbe } from '../../domain/sending/smtp-probe';

const field = (body: Record<string, unknown>, name: string, max: number, problems: string[]): string => {
  const value = body[name];
  if (typeof value !== 'string' || value.trim() === '' || value.length > max || value.includes('\0')) {
    problems.push(`${name}: must be text of 1 to ${max} characters`);
    return '';
  }
  return value;
};

/**
 * A transactional system email to one person (the account app's password reset link), through the
 * one SMTP pipeline every email uses. Not a contact's email: no workflow, no ledger row, no
 * unsubscribe link (the person asked for it, and it is about their sign-in, not marketing). Sent
 * at once and logged like a test send; a refusing or unreachable SMTP server is a 503 for the
 * caller to report, never retried here.
 */
export function internalSystemEmailRoutes(ctx: SendContext, probe: SmtpProbe): Router {
  const router = Router();

  // Asked before a reset link is even made: a deployment whose SMTP server does not answer sends
  // people to the operator instead of promising an email.
  router.get('/system-emails/status', async (_req, res) => {
    res.json({ data: { can_send: await probe.canSend() } });
  });

  router.post('/system-emails', jsonBody('256kb'), async (req, res) => {
    const body = bodyObject(req.body);
    const problems: string[] = [];
    const to = field(body, 'to', 254, problems).trim();
    if (to && !isWellFormedEmail(to)) problems.push('to: must be an email address');
    const subject = field(body, 'subject', 200, problems);
    const html = field(body, 'html', 100_000, problems);
    const text = field(body, 'text', 100_000, problems);
    if (/[\r\n]/.test(subject)) problems.push('subject: must be one line');
    if (problems.length > 0) throw validationFailed(problems);
    const messageId = `<system-${randomUUID()}@${ctx.mailDomain}>`;
    try {
      const response = await ctx.mailer.send({ to, subject, html, text, messageId, headers: {} });
      ctx.logger.info({ accountId: identityOf(res).accountId, messageId, response }, 'system email sent');
    } catch (error) {
      if (!(error instanceof SmtpFailure)) throw error;
      ctx.logger.warn({ messageId, err: error }, 'system email failed');
      throw new AppError(CommonErrorCodes.UNAVAILABLE, 'the email could not be sent').withHeaders({ 'Retry-After': '60' });
    }
    res.status(201).json({ data: { message_id: messageId } });
  });

  return router;
}
