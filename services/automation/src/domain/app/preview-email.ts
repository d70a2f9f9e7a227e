import { randomUUID } from 'node:crypto';
import type { CampaignContent } from '@mailer/shared';
import { findContactByEmail } from '../../data-access/contacts.repository';
import { SmtpFailure, type OutgoingEmail } from '../../data-access/smtp-mailer';
import { renderCampaignEmail } from '../campaigns/campaign-email';
import { RenderError } from '../rendering/render-email';
import { templateScope, type ScopeContact } from '../rendering/template-scope';
import type { SendContext } from '../sending/send-context';
import type { EmailStep } from '../workflows/workflow-schema';

/** What an email would look like for one contact: the app's preview and test send. */
export interface EmailSample {
  /** A workflow step with its workflow's fallbacks, or a campaign's content. */
  source: { kind: 'step'; step: EmailStep; fallbacks: Record<string, string | number | boolean> } | { kind: 'campaign'; content: CampaignContent };
  /** The contact to personalise for; unknown addresses render as a contact with no details (fallbacks apply). */
  contactEmail: string;
  /** The run's properties the template may use (the confirmation email's sample `confirm_url`). */
  properties?: Record<string, unknown>;
}

export interface RenderedSample {
  subject: string;
  html: string | null;
  text: string;
  /** False when no contact of the account has that address. */
  known_contact: boolean;
}

/**
 * A link that goes nowhere useful: a preview or a test is read by the account's own people, and a
 * click on a real token would unsubscribe the contact the sample was made for.
 */
const sampleUnsubscribeUrl = (ctx: SendContext) => `${ctx.publicBaseUrl.replace(/\/$/, '')}/unsubscribe/sample`;

async function renderSample(ctx: SendContext, accountId: number, sample: EmailSample): Promise<{ email: OutgoingEmail; known: boolean }> {
  const known = await findContactByEmail(ctx.pool, accountId, sample.contactEmail);
  const contact: ScopeContact = known ?? { email: sample.contactEmail, first_name: null, last_name: null, tags: [], custom_properties: {} };
  const unsubscribeUrl = sampleUnsubscribeUrl(ctx);
  const messageId = `<sample-${randomUUID()}@${ctx.mailDomain}>`;
  if (sample.source.kind === 'campaign') {
    return { email: await renderCampaignEmail(ctx.renderer, { content: sample.source.content, contact, unsubscribeUrl, messageId }), known: known !== undefined };
  }
  const scope = templateScope({ contact, event: { name: '', properties: sample.properties ?? {} }, fallbacks: sample.source.fallbacks, unsubscribeUrl });
  const rendered = await ctx.renderer.render(sample.source.step, scope, unsubscribeUrl);
  const email: OutgoingEmail = { to: contact.email, subject: rendered.subject, html: rendered.html, text: rendered.text, messageId, headers: {} };
  return { email, known: known !== undefined };
}

/** Renders without sending. Throws RenderError for a template that cannot be rendered. */
export async function previewEmail(ctx: SendContext, accountId: number, sample: EmailSample): Promise<RenderedSample> {
  const { email, known } = await renderSample(ctx, accountId, sample);
  return { subject: email.subject, html: email.html ?? null, text: email.text, known_contact: known };
}

/**
 * Sends one test of the sample to its address now, outside every ledger, subject marked "[Test]".
 * 'failed' with why for a template or SMTP failure (the person tries again; nothing is retried).
 */
export async function sendTestEmail(ctx: SendContext, accountId: number, sample: EmailSample): Promise<{ outcome: 'sent' | 'failed'; reason: string | null }> {
  try {
    const { email } = await renderSample(ctx, accountId, sample);
    await ctx.mailer.send({ ...email, subject: `[Test] ${email.subject}` });
    ctx.logger.info({ accountId, kind: sample.source.kind }, 'test email sent');
    return { outcome: 'sent', reason: null };
  } catch (error) {
    if (!(error instanceof RenderError) && !(error instanceof SmtpFailure)) throw error;
    return { outcome: 'failed', reason: error.message };
  }
}
